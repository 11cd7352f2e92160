import type { ZodType } from 'zod';

const transforms = new WeakMap<object, boolean>();

/**
 * Whether a schema transforms anywhere inside (`.transform`, `z.preprocess`, a `z.pipe` into another
 * type), memoized per schema object. Such a key's value is the transform's output, which need not match
 * the schema's input, so state checks skip it.
 *
 * @example
 * ```ts
 * hasTransform(z.string().transform((s) => s.length)); // true
 * ```
 */
export function hasTransform(schema: ZodType): boolean {
  let known = transforms.get(schema);
  if (known === undefined) {
    known = containsTransform(schema, new Set());
    transforms.set(schema, known);
  }
  return known;
}

function containsTransform(schema: unknown, seen: Set<unknown>): boolean {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (def === undefined) return false;
  if (def.type === 'pipe' || def.type === 'transform') return true;
  if (def.type === 'lazy' && typeof def.getter === 'function')
    return containsTransform((def.getter as () => unknown)(), seen);
  for (const [name, part] of Object.entries(def)) {
    if (name === 'type') continue;
    const parts = Array.isArray(part)
      ? part
      : name === 'shape' && typeof part === 'object' && part !== null
        ? Object.values(part)
        : [part];
    for (const inner of parts) if (containsTransform(inner, seen)) return true;
  }
  return false;
}
