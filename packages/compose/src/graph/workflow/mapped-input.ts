import { FieldMappingError } from '../../errors/field-mapping-error.js';
import type { AnyFieldMapping } from './field-mapping.js';

/** Everything that fills one workflow node's input. */
export interface InputPlan {
  /** The node (END for the workflow's output). */
  readonly node: string;
  /** The mappings of each data source (a source without an entry only triggers the node). */
  readonly bySource: ReadonlyMap<string, readonly AnyFieldMapping[]>;
  /** Fixed values at input paths (`setStaticValue`). */
  readonly statics: ReadonlyArray<{ readonly path: readonly string[]; readonly value: unknown }>;
}

/**
 * Builds the `merge` of a workflow node: its input assembled from the outputs that reached it (in
 * topological order) by its field mappings, plus its static values. A whole-input mapping makes the
 * input that value; field mappings fill a new object (nested objects created on the way). A source that
 * was skipped (a branch not taken) contributes nothing. No mapping at all: the input is `undefined`.
 */
export function inputMerge(
  plan: InputPlan,
): (values: readonly unknown[], sources: readonly string[]) => unknown {
  const fields =
    plan.statics.length > 0 ||
    [...plan.bySource.values()].some((list) => list.some((m) => m.toPath.length > 0));
  return (values, sources) => {
    let input: unknown = fields ? {} : undefined;
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i] as string;
      const mappings = plan.bySource.get(source);
      if (!mappings) continue;
      for (const mapping of mappings) {
        const value = readPath(values[i], mapping, plan.node, source);
        if (mapping.toPath.length === 0) input = value;
        else writePath(input as Record<string, unknown>, mapping.toPath, value);
      }
    }
    for (const { path, value } of plan.statics) writePath(input as Record<string, unknown>, path, value);
    return input;
  };
}

function readPath(output: unknown, mapping: AnyFieldMapping, node: string, source: string): unknown {
  let value = output;
  const path = mapping.fromPath;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    if (typeof value !== 'object' || value === null) {
      const at = i === 0 ? 'the output' : `"${path.slice(0, i).join('.')}"`;
      throw new FieldMappingError({
        node,
        source,
        field: mapping.from,
        reason: `${at} is ${value === null ? 'null' : typeof value}, not an object`,
      });
    }
    if (!(key in value)) {
      throw new FieldMappingError({
        node,
        source,
        field: mapping.from,
        reason: `${i === 0 ? 'the output' : `"${path.slice(0, i).join('.')}"`} has no field "${key}"`,
      });
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function writePath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let object = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string;
    // Compile-time conflict checks guarantee nothing else wrote a value here; only our own objects.
    let next = object[key] as Record<string, unknown> | undefined;
    if (next === undefined) object[key] = next = {};
    object = next;
  }
  object[path[path.length - 1] as string] = value;
}
