import { AGENT_CONTEXT_KEY, type Agent, type AgentEventInit, type AgentRunContext } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';
import { z } from 'zod';
import type { AnyCompiledGraph } from './define-app.ts';
import { toJson } from './json-safe.ts';
import { inputJsonSchema, nodeNames, type PlaygroundEvent, type RegistryEntry } from './registry-entry.ts';

/** The input form of an agent: one user message. */
const agentInput = z.object({
  message: z.string().min(1, 'say something to the agent').describe('Your message to the agent'),
});

/**
 * Makes the registry entry of an agent, compiled with the playground's checkpointer, as it is: every
 * agent (a team's members and agents used as tools included) reports its model calls and tool calls
 * on the run's event stream (`model-call`, `tool-start`, `tool-end`), which the playground forwards.
 * Runs go straight to the agent's graph (not through a Runner), so node events light up the graph,
 * while the agent context streams tokens (`token` events) and reports committed agent events.
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
        config: { [AGENT_CONTEXT_KEY]: agentContext(request.runId, request.emit) },
      }),
  };
}

function agentContext(runId: string, emit: (event: PlaygroundEvent) => void): AgentRunContext {
  const forward = (init: AgentEventInit): PlaygroundEvent => ({
    type: 'agent-event',
    path: [],
    author: init.author,
    ...(init.message ? { message: toJson(init.message) } : {}),
    ...(init.actions && Object.keys(init.actions).length > 0 ? { actions: toJson(init.actions) } : {}),
  });
  return {
    invocationId: runId,
    sessionState: {},
    temp: new Map(),
    streaming: true,
    emit: async (init) => emit(forward(init)),
    emitPartial: (init) =>
      emit({
        type: 'token',
        path: ['model'],
        node: 'model',
        author: init.author,
        ...(init.chunk?.text ? { text: init.chunk.text } : {}),
        ...(init.chunk?.toolCallDeltas ? { toolCallDeltas: toJson(init.chunk.toolCallDeltas) } : {}),
      }),
    cancelRequested: () => false,
  };
}
