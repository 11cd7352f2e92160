import type { ZodType } from 'zod';

/** A zod schema's definition, as far as path checks read it. */
interface Def {
  readonly type: string;
  readonly innerType?: ZodType;
  readonly shape?: Readonly<Record<string, ZodType>>;
  readonly valueType?: ZodType;
  readonly in?: ZodType;
  readonly out?: ZodType;
}

function defOf(schema: ZodType): Def {
  // zod 4 keeps a schema's definition on `_zod.def` (read-only here; also used by update-checks.ts).
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Strips wrappers that do not change what kind of value a field holds. */
function unwrap(schema: ZodType, side: 'input' | 'output'): ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (wrappers.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in && def.out) current = side === 'input' ? def.in : def.out;
    else return current;
  }
}

/** What a path check found: the field's schema, a missing field, or a point past which nothing is known. */
export type PathLookup =
  | { readonly found: ZodType }
  | { readonly missing: string; readonly at: string }
  | { readonly unknown: true };

/**
 * Follows `path` through a schema's objects and records. `side` says which end of a transform counts:
 * a node's input schema is read from its input end, an output schema from its output end.
 */
export function lookupPath(schema: ZodType, path: readonly string[], side: 'input' | 'output'): PathLookup {
  let current = schema;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    const def = defOf(unwrap(current, side));
    const at = path.slice(0, i).join('.') || '(the whole value)';
    if (def.type === 'object' && def.shape) {
      const field = def.shape[key];
      if (!field) return { missing: key, at };
      current = field;
    } else if (def.type === 'record' && def.valueType) {
      current = def.valueType;
    } else if (def.type === 'unknown' || def.type === 'any' || def.type === 'union' || def.type === 'lazy') {
      return { unknown: true };
    } else {
      return { missing: key, at: `${at}, a ${def.type}` };
    }
  }
  return { found: current };
}

/** The kind of value a schema holds (`string`, `object`...), or `undefined` when anything may fit. */
function kindOf(schema: ZodType, side: 'input' | 'output'): string | undefined {
  const type = defOf(unwrap(schema, side)).type;
  if (['unknown', 'any', 'union', 'lazy', 'custom', 'intersection'].includes(type)) return undefined;
  if (type === 'literal' || type === 'enum' || type === 'template_literal') return undefined;
  if (type === 'record') return 'object';
  return type;
}

/**
 * A reason a value of `source` can never fit `target` (different kinds: a string into a number), or
 * `undefined` when it may. Coarse on purpose: kinds only, so a check never rejects what could fit.
 */
export function misfit(source: ZodType, target: ZodType): string | undefined {
  const from = kindOf(source, 'output');
  const to = kindOf(target, 'input');
  if (from === undefined || to === undefined || from === to) return undefined;
  return `a ${from} does not fit a ${to}`;
}
