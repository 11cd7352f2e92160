import type { ZodObject, ZodType, z } from 'zod';
import type { GraphIO, GraphSpec } from '../pregel/topology.js';

/** The `input` and `output` schemas a {@link StateGraph} was given (each optional). */
export interface StateGraphIO {
  readonly input?: ZodType;
  readonly output?: ZodType;
}

/** What `invoke` accepts: the `input` schema's input type, else `TDefault` (the state's update). */
export type InputOfIO<TIO, TDefault> = TIO extends { readonly input: infer TInput extends ZodType }
  ? z.input<TInput>
  : TDefault;

/** What `invoke` returns: the `output` schema's type, else `TDefault` (the state). */
export type OutputOfIO<TIO, TDefault> = TIO extends { readonly output: infer TOutput extends ZodType }
  ? z.output<TOutput>
  : TDefault;

/**
 * The state graph's channels: the state schema plus every key that only the `input` or `output` schema,
 * or a node's `input` schema (its private keys), declares — optional, since nothing holds a value for
 * them until one is written. Keys the state schema has keep its field.
 */
export function withDeclaredKeys<TSpec extends GraphSpec>(spec: TSpec): TSpec {
  const { state } = spec;
  if (!state) return spec;
  const extra: Record<string, ZodType> = {};
  const add = (schema: ZodType | undefined): void => {
    const shape = shapeOf(schema);
    if (!shape) return;
    for (const [key, field] of Object.entries(shape))
      if (!(key in state.schema.shape) && !(key in extra)) extra[key] = field.optional();
  };
  add(spec.inputSchema);
  add(spec.outputSchema);
  for (const node of spec.nodes.values()) add(node.options.input);
  if (Object.keys(extra).length === 0) return spec;
  return { ...spec, state: { ...state, schema: state.schema.extend(extra) } };
}

/**
 * A state graph's result limited to its `output` schema's keys (the pending `__interrupt__` stays), or
 * the result as it is without one.
 */
export function pickOutput(spec: GraphSpec, output: unknown): unknown {
  if (spec.io) return ioOutput(spec.io, output as Record<string, unknown>);
  const shape = spec.kind === 'state' ? shapeOf(spec.outputSchema) : undefined;
  if (!shape || typeof output !== 'object' || output === null) return output;
  const picked: Record<string, unknown> = {};
  const values = output as Record<string, unknown>;
  for (const key of Object.keys(shape)) if (key in values) picked[key] = values[key];
  if ('__interrupt__' in values) picked.__interrupt__ = values.__interrupt__;
  return picked;
}

/** An entrypoint's result: its return value, or `{ __interrupt__ }` when it paused. */
function ioOutput(io: GraphIO, values: Record<string, unknown>): unknown {
  if ('__interrupt__' in values) return { __interrupt__: values.__interrupt__ };
  return io.fromState(values);
}

function shapeOf(schema: ZodType | undefined): Record<string, ZodType> | undefined {
  const def = (schema as { _zod?: { def?: { type?: string } } } | undefined)?._zod?.def;
  return def?.type === 'object' ? ((schema as ZodObject).shape as Record<string, ZodType>) : undefined;
}
