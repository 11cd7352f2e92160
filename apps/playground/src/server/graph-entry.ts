import { type Checkpointer, updateSchemaOf } from '@weft/compose';
import { z } from 'zod';
import type { AnyCompiledGraph } from './define-app.ts';
import { withEntrypointTasks } from './entrypoint-topology.ts';
import { recompileWithCheckpointer } from './recompile-graph.ts';
import { inputJsonSchema, nodeNames, type RegistryEntry } from './registry-entry.ts';

/** How to list and run one graph. */
export interface GraphEntrySource {
  readonly id: string;
  readonly graph: AnyCompiledGraph;
  readonly description?: string;
  readonly maxSteps?: number;
  /**
   * How the checkpointer is attached: `recompile` (default: from the public spec, compile options
   * dropped) or `attach` (`withOptions({ checkpointer })`: the graph exactly as workers run it).
   */
  readonly checkpointerMode?: 'recompile' | 'attach';
}

/**
 * Makes the registry entry of a graph, recompiled with the playground's checkpointer so threads keep
 * history, resume and forks — in DAG mode too (ADR 023), where static breakpoints do not exist.
 *
 * @example
 * ```ts
 * const entry = graphEntry({ id: 'loop', graph }, checkpointer);
 * ```
 */
export function graphEntry(source: GraphEntrySource, checkpointer: Checkpointer): RegistryEntry {
  const breakpoints = source.graph.mode === 'pregel';
  // A functional-API entrypoint is its body, which a recompile from the spec cannot rebuild: it gets the
  // checkpointer attached, takes any input (its body's type is not a schema) and draws with its tasks.
  const entrypoint = source.graph.spec.io !== undefined;
  const graph =
    source.checkpointerMode === 'attach' || entrypoint
      ? source.graph.withOptions({ checkpointer })
      : recompileWithCheckpointer(source.graph, checkpointer);
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
    execute: (request) =>
      graph.run(request.input as never, {
        runId: request.runId,
        signal: request.signal,
        callbacks: { onEvent: request.onEvent },
        ...(maxSteps === undefined ? {} : { maxSteps }),
        threadId: request.threadId,
        ...(breakpoints
          ? { interruptBefore: request.breakpoints.before, interruptAfter: request.breakpoints.after }
          : {}),
        ...(request.checkpointId === undefined ? {} : { checkpointId: request.checkpointId }),
      }),
  };
}
