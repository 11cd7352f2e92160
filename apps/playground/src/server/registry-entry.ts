import type { RunEvent, RunResult } from '@weft/compose';
import { type ZodError, type ZodType, z } from 'zod';
import type { Breakpoints, GraphInfo, JsonSchema } from '../shared/wire.ts';
import type { AnyCompiledGraph } from './define-app.ts';

/** What one run of an entry needs. */
export interface RunRequest {
  readonly runId: string;
  readonly threadId: string;
  /** The input, `null` (continue) or a `Command` (resume). */
  readonly input: unknown;
  readonly checkpointId: string | undefined;
  readonly breakpoints: Breakpoints;
  readonly signal: AbortSignal;
  /** Receives every event of the run (compose's `RunEvent`, agents' included). */
  readonly onEvent: (event: RunEvent) => void;
}

/** The result of checking a run input. */
export type InputCheck =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly error: ZodError };

/** A graph or agent the server can list and run. */
export interface RegistryEntry {
  readonly info: GraphInfo;
  /** The compiled graph runs use (with the playground's checkpointer when durable). */
  readonly graph: AnyCompiledGraph;
  /** Node names of the top-level graph (for breakpoints and `asNode`). */
  readonly nodes: ReadonlySet<string>;
  /** Checks a run input against the entry's input schema and returns what the graph receives. */
  parseInput(input: unknown): InputCheck;
  /** Runs the entry's graph once. */
  execute(request: RunRequest): Promise<RunResult<unknown>>;
}

/**
 * The JSON Schema of a zod schema for the input form (input side; types JSON Schema cannot express
 * become "any"); `{}` (any JSON) when there is no schema or it cannot be converted.
 *
 * @example
 * ```ts
 * inputJsonSchema(z.object({ target: z.number() })); // { type: 'object', properties: { target: … } … }
 * ```
 */
export function inputJsonSchema(schema: ZodType | undefined): JsonSchema {
  if (!schema) return {};
  try {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    return rest as JsonSchema;
  } catch {
    return {};
  }
}

/**
 * The top-level node names of a graph, without START and END.
 *
 * @example
 * ```ts
 * nodeNames(graph); // Set { 'plan', 'research' }
 * ```
 */
export function nodeNames(graph: AnyCompiledGraph): ReadonlySet<string> {
  return new Set(graph.spec.nodes.keys());
}
