import {
  type Checkpointer,
  type RunEndEvent,
  type RunEvent,
  type StreamMode,
  updateSchemaOf,
} from '@weft/compose';
import { z } from 'zod';
import type { AnyCompiledGraph } from './define-app.ts';
import { withEntrypointTasks } from './entrypoint-topology.ts';
import { inputJsonSchema, nodeNames, type RegistryEntry, type RunSummary } from './registry-entry.ts';

/** How to list and run one graph. */
export interface GraphEntrySource {
  readonly id: string;
  readonly graph: AnyCompiledGraph;
  readonly description?: string;
  /** Supersteps allowed per run; default: the graph's own (its `compile({ maxSteps })`). */
  readonly maxSteps?: number;
}

/**
 * Makes the registry entry of a graph: the graph exactly as the user compiled it, with the playground's
 * checkpointer attached (`withOptions`), so threads keep history, resume and forks — in DAG mode too
 * (ADR 023), where static breakpoints do not exist. A run is the engine's own event stream
 * (`graph.stream(…, { mode: ['events', 'updates'] })`), read one event at a time: the next is taken
 * only once `onEvent`'s promise (the playground's readers lagging) settled, so a slow browser slows
 * the run through the stream's backpressure instead of losing events (ADR 033).
 *
 * @example
 * ```ts
 * const entry = graphEntry({ id: 'loop', graph }, checkpointer);
 * ```
 */
export function graphEntry(source: GraphEntrySource, checkpointer: Checkpointer): RegistryEntry {
  const breakpoints = source.graph.mode === 'pregel';
  // A functional-API entrypoint takes any input (its body's type is not a schema) and draws with its tasks.
  const entrypoint = source.graph.spec.io !== undefined;
  const graph = source.graph.withOptions({ checkpointer });
  const { spec } = graph;
  // A state graph without an input schema takes any partial update of its state.
  const schema = entrypoint
    ? undefined
    : (spec.inputSchema ?? (spec.state ? updateSchemaOf(spec.state, z) : undefined));
  const maxSteps = source.maxSteps;
  return {
    info: {
      id: source.id,
      kind: 'graph',
      description: source.description ?? '',
      breakpoints,
      topology: withEntrypointTasks(graph.toJSON()),
      inputSchema: inputJsonSchema(schema),
    },
    graph,
    nodes: nodeNames(graph),
    parseInput: (input) => (schema ? schema.safeParse(input) : { success: true, data: input }),
    execute: async (request) => {
      const parts = graph.stream(request.input as never, {
        mode: ['events', 'updates'],
        runId: request.runId,
        signal: request.signal,
        ...(maxSteps === undefined ? {} : { maxSteps }),
        threadId: request.threadId,
        ...(breakpoints
          ? { interruptBefore: request.breakpoints.before, interruptAfter: request.breakpoints.after }
          : {}),
        ...(request.checkpointId === undefined ? {} : { checkpointId: request.checkpointId }),
      });
      let ended: RunEndEvent | undefined;
      let interrupts: RunSummary['interrupts'] = [];
      for await (const [mode, part] of parts as AsyncIterable<[StreamMode, unknown]>) {
        if (mode === 'events') {
          const event = part as RunEvent;
          if (event.type === 'run-end' && event.path.length === 0) ended = event;
          await request.onEvent(event);
        } else if ((part as { node: string }).node === '__interrupt__') {
          interrupts = (part as { update: RunSummary['interrupts'] }).update;
        }
      }
      const state = await graph.getState(request.threadId);
      return {
        status: ended?.status ?? 'done',
        steps: ended?.steps ?? 0,
        interrupts,
        checkpointId: state?.checkpointId,
      };
    },
  };
}
