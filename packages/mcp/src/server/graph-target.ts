import { randomUUID } from 'node:crypto';
import type { JsonSchema } from '@weft/adk';
import { zodToJsonSchema } from '@weft/adk/agent-graph';
import {
  type Checkpointer,
  Command,
  type CompiledGraph,
  type RunResult,
  updateSchemaOf,
} from '@weft/compose';
import { z } from 'zod';
import { type ServeOutcome, type ServeTarget, threadIdFor } from './serve-target.js';

/** Any compiled graph, whatever its input and output types. */
// biome-ignore lint/suspicious/noExplicitAny: graphs of every input, output and node type are served alike
export type AnyCompiledGraph = CompiledGraph<any, any, string, any>;

/**
 * The JSON Schema of what a graph accepts — its input schema, else its state's update schema — as an
 * object schema (MCP tools take objects): a graph whose input is not an object takes it as `input`.
 */
export function graphInputSchema(graph: AnyCompiledGraph): { schema: JsonSchema; wrapped: boolean } {
  const { inputSchema, state } = graph.spec;
  const source = inputSchema ?? (state ? updateSchemaOf(state, z) : undefined);
  if (!source) return { schema: { type: 'object' }, wrapped: false };
  const json = zodToJsonSchema(source);
  if (json.type === 'object') return { schema: json, wrapped: false };
  return { schema: { type: 'object', properties: { input: json }, required: ['input'] }, wrapped: true };
}

function outcome(threadId: string, result: RunResult<unknown>): ServeOutcome {
  if (result.status === 'interrupted') {
    return {
      status: 'interrupted',
      threadId,
      interrupts: result.interrupts.map((pause) => ({ id: pause.id, value: pause.value })),
    };
  }
  return { status: 'done', threadId, output: result.output, text: JSON.stringify(result.output) };
}

/** A compiled graph as an MCP tool: its input schema is the tool's; a run is one thread of its checkpointer. */
export function graphTarget(
  name: string,
  graph: AnyCompiledGraph,
  options: { readonly checkpointer: Checkpointer; readonly description?: string },
): ServeTarget {
  const durable = graph.withOptions({ checkpointer: options.checkpointer });
  const { schema: inputSchema, wrapped } = graphInputSchema(graph);
  return {
    name,
    description: options.description ?? `Runs the graph "${graph.name}" and returns its output.`,
    inputSchema,
    start: async (args, signal) => {
      const threadId = threadIdFor(name, randomUUID());
      const input = wrapped ? args.input : args;
      return outcome(threadId, await durable.run(input, { threadId, signal }));
    },
    resume: async (threadId, answer, signal) =>
      outcome(threadId, await durable.run(new Command({ resume: answer }), { threadId, signal })),
  };
}
