// The functional API's entry (`@weft/compose/func`) loads zod at run time for its one fixed state
// schema: unlike the main entry, whose users may never check an input, every entrypoint needs it.
import { type ZodObject, z } from 'zod';

let schema: ZodObject | undefined;

/**
 * The state of every entrypoint: this turn's input, its return value, what it saved for the next turn,
 * and whether it returned in this turn (the `values` stream waits for that).
 */
export function entrypointState(): ZodObject {
  schema ??= z.object({
    input: z.unknown(),
    output: z.unknown(),
    previous: z.unknown(),
    returned: z.boolean().optional(),
  });
  return schema;
}
