import type { BuilderError } from '../builder-types.js';
import type { FieldMapping } from './field-mapping.js';

declare const missingField: unique symbol;
/** The type of a field path that does not exist (never a real value's type). */
export interface MissingField {
  readonly [missingField]: true;
}

/** One step of a path: the field's type, `MissingField` if there is none, `unknown` past an unknown. */
type Step<T, TKey extends string> = unknown extends T
  ? unknown
  : NonNullable<T> extends infer TObject
    ? TObject extends readonly unknown[]
      ? MissingField
      : TObject extends object
        ? TKey extends keyof TObject
          ? TObject[TKey]
          : MissingField
        : MissingField
    : never;

/** The type at a dotted path of `T` (`''`: `T` itself), `MissingField` when the path does not exist. */
export type PathValue<T, TPath extends string> = TPath extends ''
  ? T
  : TPath extends `${infer THead}.${infer TRest}`
    ? PathValue<Step<T, THead>, TRest>
    : Step<T, TPath>;

/** `{ a: { b: V } }` for the path `'a.b'`: what a field mapping into a passthrough adds to its type. */
export type NestAt<TPath extends string, TValue> = TPath extends ''
  ? TValue
  : TPath extends `${infer THead}.${infer TRest}`
    ? { [K in THead]: NestAt<TRest, TValue> }
    : { [K in TPath]: TValue };

type IsUnknown<T> = unknown extends T ? true : false;
type IsMissing<T> = [MissingField] extends [T] ? true : false;

/** What is wrong with one mapping (a type-level message), or `never` when it fits or cannot be checked. */
export type MappingProblem<TSource, TTarget, TFrom extends string, TTo extends string, TMapping> =
  TMapping extends FieldMapping<infer TFromPath, infer TToPath>
    ? string extends TFromPath | TToPath
      ? never
      : MappingFit<
          PathValue<TSource, TFromPath>,
          PathValue<TTarget, TToPath>,
          TFromPath extends '' ? `the output of "${TFrom}"` : `field "${TFromPath}" of "${TFrom}"`,
          TToPath extends '' ? `the input of "${TTo}"` : `field "${TToPath}" of "${TTo}"`
        >
    : never;

type MappingFit<TValue, TField, TFromLabel extends string, TToLabel extends string> =
  IsUnknown<TValue> extends true
    ? IsUnknown<TField> extends true
      ? never
      : IsMissing<TField> extends true
        ? `${TToLabel} does not exist`
        : never
    : IsMissing<TValue> extends true
      ? `${TFromLabel} does not exist`
      : IsUnknown<TField> extends true
        ? never
        : IsMissing<TField> extends true
          ? `${TToLabel} does not exist`
          : [TValue] extends [TField]
            ? never
            : `the type of ${TFromLabel} does not fit ${TToLabel}`;

/** Each mapping as given, or a readable error in its place. */
export type CheckMappings<
  TSource,
  TTarget,
  TFrom extends string,
  TTo extends string,
  TMappings extends readonly unknown[],
> = {
  [K in keyof TMappings]: [MappingProblem<TSource, TTarget, TFrom, TTo, TMappings[K]>] extends [never]
    ? TMappings[K]
    : BuilderError<MappingProblem<TSource, TTarget, TFrom, TTo, TMappings[K]> & string>;
};

/** Empty when the whole output of `TFrom` fits the whole input of `TTo`; else a one-element error. */
export type WholeCheck<TSource, TTarget, TFrom extends string, TTo extends string> = [
  MappingFit<TSource, TTarget, `the output of "${TFrom}"`, `the input of "${TTo}"`>,
] extends [never]
  ? []
  : [BuilderError<`the output of "${TFrom}" does not fit the input of "${TTo}"`>];

/** What a passthrough node's type gains from a list of mappings (whole output, or nested fields). */
export type MappedShape<TSource, TMappings extends readonly unknown[]> = TMappings extends readonly []
  ? TSource
  : UnionToIntersection<
      {
        [K in keyof TMappings]: TMappings[K] extends FieldMapping<infer TFromPath, infer TToPath>
          ? string extends TFromPath | TToPath
            ? unknown
            : NestAt<TToPath, PathValue<TSource, TFromPath>>
          : unknown;
      }[number]
    >;

type UnionToIntersection<TUnion> = (TUnion extends unknown ? (value: TUnion) => void : never) extends (
  value: infer TIntersection,
) => void
  ? TIntersection
  : never;
