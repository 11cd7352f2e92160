import { AGENT_CONTEXT_KEY, type Agent, type AgentRunContext, type ArtifactService } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';
import { z } from 'zod';
import type { AnyCompiledGraph } from './define-app.ts';
import { type RecallLog, recallOf } from './memory/recall-log.ts';
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
  services?: AgentServices,
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
        callbacks: { onEvent: services ? tapRecalls(request, services) : request.onEvent },
        ...(services ? { config: { [AGENT_CONTEXT_KEY]: runContext(request, services) } } : {}),
      }),
  };
}

/**
 * The session the playground's agents run in (the thread is the session) and the services they reach
 * through it; set when the app has a memory or artifacts.
 *
 * @example
 * ```ts
 * const services: AgentServices = { appName: 'playground', userId: 'playground-user', recalls: new RecallLog() };
 * ```
 */
export interface AgentServices {
  readonly appName: string;
  readonly userId: string;
  readonly artifacts?: ArtifactService;
  /** Receives what `recall` put in the instruction for each turn. */
  readonly recalls?: RecallLog;
}

type ExecuteRequest = Parameters<RegistryEntry['execute']>[0];

function runContext(request: ExecuteRequest, services: AgentServices): AgentRunContext {
  return {
    invocationId: request.runId,
    sessionState: {},
    temp: new Map(),
    cancelRequested: () => false,
    session: { appName: services.appName, userId: services.userId, sessionId: request.threadId },
    ...(services.artifacts ? { artifacts: services.artifacts } : {}),
  };
}

function tapRecalls(request: ExecuteRequest, services: AgentServices): ExecuteRequest['onEvent'] {
  return (event) => {
    const recall = recallOf(event);
    if (recall && services.recalls) {
      const memories = Array.isArray(recall.data.memories) ? recall.data.memories : [];
      services.recalls.add({
        runId: request.runId,
        threadId: request.threadId,
        userId: services.userId,
        agent: recall.agent,
        query: String(recall.data.query ?? ''),
        memories: memories as never,
        dropped: Number(recall.data.dropped ?? 0),
        at: Date.now(),
      });
    }
    request.onEvent(event);
  };
}
