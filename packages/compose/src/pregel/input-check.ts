import type { ZodType } from 'zod';
import { InputValidationError } from '../errors/input-validation-error.js';
import { builtUpdateSchema, loadUpdateSchema } from '../state/update-schema.js';
import type { GraphSpec } from './topology.js';

/**
 * Checks a value from outside against the graph's input schema: the builder's `input` schema, else a
 * state graph's update schema, else nothing. Synchronous except on the first check of a state graph
 * whose update schema is not built yet (compose loads zod only then).
 *
 * @throws InputValidationError naming `what` and every failed field.
 */
export function checkInput(spec: GraphSpec, what: string, value: unknown): unknown {
  return spec.inputSchema ? parseWith(spec.inputSchema, what, value) : checkUpdate(spec, what, value);
}

/**
 * Checks a state update from outside (`updateState` values, and the input of a state graph without an
 * input schema) against the update schema of the state: every key optional, reducer keys take their
 * update. Values of a graph without state pass as they are.
 *
 * @throws InputValidationError naming `what` and every failed field.
 */
export function checkUpdate(spec: GraphSpec, what: string, value: unknown): unknown {
  if (!spec.state) return value;
  const schema = builtUpdateSchema(spec.state);
  if (schema) return parseWith(schema, what, value);
  return loadUpdateSchema(spec.state).then((loaded) => parseWith(loaded, what, value));
}

function parseWith(schema: ZodType, what: string, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw new InputValidationError(what, result.error);
  return result.data;
}
