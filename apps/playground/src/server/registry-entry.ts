import type { RunEvent } from '@weft/compose';
import { type ZodError, type ZodType, z } from 'zod';
import type { Breakpoints, GraphInfo, JsonSchema } from '../shared/wire.ts';
import type { AnyCompiledGraph } from './define-app.ts';
import type { SessionBranch } from './session-branches.ts';

/** What one run of an entry needs. */
export interface RunRequest {
  readonly runId: string;
  readonly threadId: string;
  /** The input, `null` (continue) or a `Command` (resume). */
  readonly input: unknown;
  readonly checkpointId: string | undefined;
  /**
   * A run from an older checkpoint (fork, time travel): the checkpoint it branches at (a fork's original
   * one, before edits). Agents go on in a new session branch there.
   */
  readonly branchFrom?: string | undefined;
  readonly breakpoints: Breakpoints;
  readonly signal: AbortSignal;
  /**
   * Receives every event of the run (compose's `RunEvent`, agents' included). A promise it returns is
   * the run's readers lagging: a graph run waits for it before taking the next event off its stream.
   */
  readonly onEvent: (event: RunEvent) => Promise<void> | undefined;
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
  execute(request: RunRequest): Promise<RunSummary>;
  /**
   * Agents: the thread's current session (or its branch `sessionId`) with its state and committed
   * events, and the thread's branches; `undefined` when `sessionId` is not one of the thread's.
   */
  session?(threadId: string, sessionId?: string): Promise<ThreadSession | undefined>;
  /** Agents: deletes the thread's sessions (the thread is being deleted). */
  forget?(threadId: string): Promise<void>;
}

/** How one run of an entry ended (without failing). */
export interface RunSummary {
  readonly status: 'done' | 'interrupted';
  readonly steps: number;
  readonly interrupts: ReadonlyArray<{
    readonly id: string;
    readonly value: unknown;
    readonly path: readonly string[];
  }>;
  readonly checkpointId: string | undefined;
}

/** The session an agent thread runs in now, with the branches forks made. */
export interface ThreadSession {
  readonly sessionId: string;
  readonly branches: readonly SessionBranch[];
  /** The session's state, `user:` and `app:` keys merged in. */
  readonly state: Readonly<Record<string, unknown>>;
  /** The committed events, oldest first. */
  readonly events: readonly unknown[];
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
