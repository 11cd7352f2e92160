import type { Agent } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';
import { z } from 'zod';
import type { AnyCompiledGraph } from './define-app.ts';
import { inputJsonSchema, nodeNames, type RegistryEntry } from './registry-entry.ts';

/** The input form of an agent: one user message. */
const agentInput = z.object({
  message: z.string().min(1, 'say something to the agent').describe('Your message to the agent'),
});

/**
 * Makes the registry entry of an agent, compiled with the playground's checkpointer, as it is: every
 * agent (a team's members and agents used as tools included) reports on the run's event stream —
 * tokens (`chunk`), model calls, tool calls and its events (`agent`) — which the playground forwards.
 *
 * @example
 * ```ts
 * const entry = agentEntry({ id: 'assistant', agent }, checkpointer);
 * ```
 */
export function agentEntry(
  source: { readonly id: string; readonly agent: Agent; readonly description?: string },
  checkpointer: Checkpointer,
): RegistryEntry {
  const graph = source.agent.compile({ checkpointer }) as unknown as AnyCompiledGraph;
  return {
    info: {
      id: source.id,
      kind: 'agent',
      description: source.description ?? source.agent.description,
      durable: true,
      topology: graph.toJSON(),
      inputSchema: inputJsonSchema(agentInput),
    },
    graph,
    nodes: nodeNames(graph),
    parseInput: (input) => {
      const parsed = agentInput.safeParse(input);
      return parsed.success ? { success: true, data: { input: parsed.data.message } } : parsed;
    },
    execute: (request) =>
      graph.run(request.input as never, {
        runId: request.runId,
        signal: request.signal,
        threadId: request.threadId,
        interruptBefore: request.breakpoints.before,
        interruptAfter: request.breakpoints.after,
        ...(request.checkpointId === undefined ? {} : { checkpointId: request.checkpointId }),
        callbacks: { onEvent: request.onEvent },
      }),
  };
}
