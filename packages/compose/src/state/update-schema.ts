import type { ZodObject, ZodType, z } from 'zod';
import type { AnyReducer } from './reducers.js';

/** The `zod` namespace: `z` from `import { z } from 'zod'`. */
export type ZodNamespace = typeof z;

/** The part of a state graph's spec an update schema is made from. */
export interface StateSchemaSource {
  readonly schema: ZodObject;
  readonly reducers: Readonly<Record<string, AnyReducer | undefined>>;
}

const built = new WeakMap<StateSchemaSource, ZodObject>();
let zodModule: Promise<ZodNamespace> | undefined;

/**
 * The schema of a state graph's input (and of `updateState` values): every key optional, schema
 * defaults left out (a key not given keeps its value) and unknown keys rejected. Keys with a reducer take the reducer's update: an item or a list for
 * `appendReducer`, a number for `sumReducer`, a partial object for `mergeReducer`, anything for a
 * custom reducer (it receives the value as is). Built once per state spec.
 *
 * It takes your `zod` namespace because `@weft/compose` does not load zod when it is imported (zod
 * alone takes longer to load than all of compose); the engine loads it on the first input it checks.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * const graph = new StateGraph(z.object({ count: z.number() }));
 * const schema = updateSchemaOf(graph.compile().spec.state!, z);
 * schema.safeParse({ count: 'one' }).success; // false
 * ```
 */
export function updateSchemaOf(state: StateSchemaSource, zod: ZodNamespace): ZodObject {
  let schema = built.get(state);
  if (!schema) {
    const shape: Record<string, ZodType> = {};
    for (const [key, field] of Object.entries(state.schema.shape as Record<string, ZodType>)) {
      const reducer = state.reducers[key] as (AnyReducer & { reducerKind?: string }) | undefined;
      shape[key] = (
        reducer ? reducerUpdate(zod, field, reducer.reducerKind) : withoutDefault(zod, field)
      ).optional();
    }
    schema = zod.object(shape).strict();
    built.set(state, schema);
  }
  return schema;
}

/** The update schema if it was built already (the synchronous fast path of every later run). */
export function builtUpdateSchema(state: StateSchemaSource): ZodObject | undefined {
  return built.get(state);
}

/** The update schema, loading zod first if nothing has loaded it through compose yet. */
export async function loadUpdateSchema(state: StateSchemaSource): Promise<ZodObject> {
  zodModule ??= import('zod').then((module) => module.z);
  return updateSchemaOf(state, await zodModule);
}

function reducerUpdate(zod: ZodNamespace, field: ZodType, kind: string | undefined): ZodType {
  const inner = unwrap(zod, field);
  switch (kind) {
    case 'append':
      return inner instanceof zod.ZodArray ? zod.union([inner, inner.element as ZodType]) : zod.unknown();
    case 'sum':
      return zod.number();
    case 'merge':
      return inner instanceof zod.ZodObject ? inner.partial() : zod.record(zod.string(), zod.unknown());
    default:
      return zod.unknown();
  }
}

/**
 * The field without its schema default: an update (or a new turn's input) that leaves a key out must
 * leave the key's value alone, not reset it to the default. Defaults apply once, to a new thread.
 */
function withoutDefault(zod: ZodNamespace, field: ZodType): ZodType {
  if (field instanceof zod.ZodDefault || field instanceof zod.ZodPrefault)
    return withoutDefault(zod, field.unwrap() as ZodType);
  if (field instanceof zod.ZodOptional) return withoutDefault(zod, field.unwrap() as ZodType).optional();
  if (field instanceof zod.ZodNullable) return withoutDefault(zod, field.unwrap() as ZodType).nullable();
  return field;
}

function unwrap(zod: ZodNamespace, field: ZodType): ZodType {
  let current: ZodType = field;
  while (
    current instanceof zod.ZodDefault ||
    current instanceof zod.ZodOptional ||
    current instanceof zod.ZodNullable
  ) {
    current = current.unwrap() as ZodType;
  }
  return current;
}
