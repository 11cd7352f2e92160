import { AsyncLocalStorage } from 'node:async_hooks';
import {
  AGENT_CONTEXT_KEY,
  type Agent,
  type AgentEventInit,
  type AgentMiddleware,
  type AgentRunContext,
  ChatModelAgent,
} from '@weft/adk';
import type { Checkpointer } from '@weft/compose';
import { z } from 'zod';
import type { AnyCompiledGraph } from './define-app.ts';
import { errorInfo, toJson } from './json-safe.ts';
import { inputJsonSchema, nodeNames, type PlaygroundEvent, type RegistryEntry } from './registry-entry.ts';

/** The input form of an agent: one user message. */
const agentInput = z.object({
  message: z.string().min(1, 'say something to the agent').describe('Your message to the agent'),
});

/** Where the recorder middleware sends model calls: the run that is executing (set per run). */
const modelSink = new AsyncLocalStorage<(event: PlaygroundEvent) => void>();

/** Reports each model request (as sent, after every other middleware) and its response. */
const recorder: AgentMiddleware = {
  name: 'weft-playground-recorder',
  wrapModel: async (request, next) => {
    const sink = modelSink.getStore();
    const started = Date.now();
    const requestJson = {
      messages: toJson(request.messages),
      tools: toJson(request.tools.map((t) => t.spec)),
      options: toJson(request.options),
    };
    const base = { type: 'model-call', path: ['model'], node: 'model', request: requestJson } as const;
    try {
      const response = await next(request);
      sink?.({ ...base, response: toJson(response), durationMs: Date.now() - started });
      return response;
    } catch (error) {
      sink?.({ ...base, error: errorInfo(error), durationMs: Date.now() - started });
      throw error;
    }
  },
};

/**
 * A plain chat-model agent rebuilt with one more (innermost) middleware that records model requests
 * and responses; other agents (teams, workflow agents) are returned as they are.
 */
function instrument(agent: Agent): Agent {
  if (!(agent instanceof ChatModelAgent) || agent.subAgents.length > 0) return agent;
  const options = agent.options;
  return new ChatModelAgent({
    name: options.name,
    description: options.description,
    ...(options.instruction === undefined ? {} : { instruction: options.instruction }),
    model: options.model,
    tools: options.tools,
    maxIterations: options.maxIterations,
    ...(options.outputKey === undefined ? {} : { outputKey: options.outputKey }),
    ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
    returnDirectly: [...options.returnDirectly],
    middleware: [...options.middleware, recorder],
    modelOptions: options.modelOptions,
    toolConcurrency: options.toolConcurrency,
    ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
    onToolError: options.onToolError,
  });
}

/**
 * Makes the registry entry of an agent, compiled with the playground's checkpointer. A plain
 * `ChatModelAgent` is rebuilt with a recorder middleware, so its model calls show up with their exact
 * request and response. Runs go straight to the agent's graph (not through a Runner), so node events
 * light up the graph, while the agent context streams tokens (`token` events) and reports committed
 * agent events.
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
  const graph = instrument(source.agent).compile({ checkpointer }) as unknown as AnyCompiledGraph;
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
      modelSink.run(request.emit, () =>
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
      ),
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
