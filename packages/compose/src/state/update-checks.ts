import type { ZodError, ZodObject, ZodType } from 'zod';
import { hasTransform } from './has-transform.js';
import type { AnyReducer } from './reducers.js';

/** Checks one write to a key: `undefined` when it fits, else zod's error. */
export type KeyCheck = (value: unknown) => ZodError | undefined;

/**
 * Per key, how a node's write is checked against the state schema, built without loading zod (the
 * schema's own methods do the work). An update is a partial of the state, so `undefined` passes for
 * every key (as LangGraph checks updates against the schema made partial); otherwise a key without a
 * reducer takes a value its field accepts (refinements included); an `appendReducer` key an item or a
 * list its array accepts; a `mergeReducer` key a partial object; a `sumReducer` key a number. A custom
 * reducer's update is its own business: unchecked, and so is a key whose schema transforms (it holds the
 * transform's output). Keys are checked as written: values are not parsed.
 */
export function buildUpdateChecks(
  schema: ZodObject,
  reducers: Readonly<Record<string, AnyReducer | undefined>>,
): Readonly<Record<string, KeyCheck | undefined>> {
  const checks: Record<string, KeyCheck | undefined> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, ZodType>)) {
    const reducer = reducers[key] as (AnyReducer & { reducerKind?: string }) | undefined;
    // A transforming key holds the transform's output, which need not fit the schema's input.
    if (hasTransform(field)) continue;
    const check = reducer ? reducerCheck(field, reducer.reducerKind) : parseCheck(field);
    checks[key] = check && ((value) => (value === undefined ? undefined : check(value)));
  }
  return checks;
}

/**
 * The rules a state schema states on the whole object (`.refine`, `.superRefine`, `.check` on the
 * `z.object`), as one check of a merged state; `undefined` when it states none. Fields are not checked
 * here (each write was, key by key), and keys still unset are no error: the state fills over steps.
 */
export function buildStateRules(schema: ZodObject): KeyCheck | undefined {
  if (!(defOf(schema).checks?.length ?? 0)) return undefined;
  // The schema's own methods, no zod import: any key passes through (`loose`), the shape is dropped, the
  // object's checks stay.
  const loose = schema.loose();
  const rules = loose.clone({ ...defOf(loose), shape: {} } as never);
  return parseCheck(rules);
}

function parseCheck(schema: ZodType): KeyCheck {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? undefined : result.error;
  };
}

function reducerCheck(field: ZodType, kind: string | undefined): KeyCheck | undefined {
  const inner = unwrap(field);
  const type = defOf(inner).type;
  switch (kind) {
    case 'append': {
      if (type !== 'array') return undefined;
      const list = parseCheck(inner);
      const item = parseCheck(defOf(inner).element as ZodType);
      return (value) => (Array.isArray(value) ? list(value) : item(value));
    }
    case 'merge':
      return type === 'object' ? parseCheck((inner as ZodObject).partial()) : undefined;
    case 'sum':
      return (value) => (typeof value === 'number' ? undefined : parseCheck(inner)(value as never));
    default:
      return undefined;
  }
}

interface Def {
  readonly type: string;
  readonly checks?: readonly unknown[];
  readonly innerType?: ZodType;
  readonly element?: ZodType;
}

function defOf(schema: ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The field without default/optional/nullable wrappers (the reducer's update fills a value, not a gap). */
function unwrap(field: ZodType): ZodType {
  let current = field;
  for (;;) {
    const def = defOf(current);
    if (!['default', 'prefault', 'optional', 'nullable'].includes(def.type) || !def.innerType) return current;
    current = def.innerType;
  }
}
