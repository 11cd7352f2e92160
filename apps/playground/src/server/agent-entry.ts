import { type Agent, type AgentEvent, type ArtifactService, Runner, type SessionService } from '@weft/adk';
import { type Checkpointer, isCommand, type RunEvent, WeftError } from '@weft/compose';
import { z } from 'zod';
import { branchSession } from './branch-session.ts';
import type { AnyCompiledGraph } from './define-app.ts';
import { type RecallLog, recallOf } from './memory/recall-log.ts';
import { inputJsonSchema, nodeNames, type RegistryEntry, type RunRequest } from './registry-entry.ts';
import type { SessionBranches } from './session-branches.ts';

/** The input form of an agent: one user message. */
const agentInput = z.object({
  message: z.string().min(1, 'say something to the agent').describe('Your message to the agent'),
});

/**
 * The sessions the playground's agents run in (ADR 018): a playground thread is a session of one local
 * user (its branches after forks), committed to `sessions`; `app:` keys are shared by the app's agents,
 * `user:` keys by every agent thread of the user.
 *
 * @example
 * ```ts
 * const services: AgentServices = { appName: 'playground', userId: 'playground-user', sessions, branches };
 * ```
 */
export interface AgentServices {
  readonly appName: string;
  readonly userId: string;
  readonly sessions: SessionService;
  readonly branches: SessionBranches;
  readonly artifacts?: ArtifactService;
  /** Receives what `recall` put in the instruction for each turn. */
  readonly recalls?: RecallLog;
}

/**
 * Makes the registry entry of an agent: its runs go through a `Runner` over the playground's session
 * service and checkpointer (the checkpoint thread is the playground thread), so every event is committed
 * to the thread's current session before the agent goes on, and `temp:`/`user:`/`app:` state works as in
 * an app. Every `RunEvent` (tokens, model and tool calls, agent events) is forwarded as well. A run from
 * an older checkpoint (fork, time travel) goes on in a new session branch (see {@link branchSession}).
 *
 * @example
 * ```ts
 * const entry = agentEntry({ id: 'assistant', agent }, checkpointer, services);
 * ```
 */
export function agentEntry(
  source: { readonly id: string; readonly agent: Agent; readonly description?: string },
  checkpointer: Checkpointer,
  services: AgentServices,
): RegistryEntry {
  const graph = source.agent.compile({ checkpointer }) as unknown as AnyCompiledGraph;
  const { branches, userId, appName } = services;
  const runner = new Runner({
    agent: source.agent,
    sessionService: services.sessions,
    checkpointer,
    appName,
    threadOf: (key) => branches.threadOf(key.sessionId),
    recordCheckpoints: true,
    ...(services.artifacts ? { artifactService: services.artifacts } : {}),
  });
  const sessionOf = async (request: RunRequest): Promise<string> => {
    branches.ensureFirst(request.threadId);
    const at = request.branchFrom;
    if (at === undefined || at === (await graph.getState(request.threadId))?.checkpointId)
      return branches.current(request.threadId);
    return branchSession({ ...services, graph, threadId: request.threadId, at });
  };
  return {
    info: {
      id: source.id,
      kind: 'agent',
      description: source.description ?? source.agent.description,
      breakpoints: true,
      topology: graph.toJSON(),
      inputSchema: inputJsonSchema(agentInput),
    },
    graph,
    nodes: nodeNames(graph),
    parseInput: (input) => {
      const parsed = agentInput.safeParse(input);
      return parsed.success ? { success: true, data: { input: parsed.data.message } } : parsed;
    },
    session: async (threadId, branch) => {
      const sessionId = branch ?? branches.current(threadId);
      if (branches.threadOf(sessionId) !== threadId) return undefined;
      const session = await services.sessions.get({ appName, userId, sessionId });
      return {
        sessionId,
        branches: branches.list(threadId),
        state: session?.state ?? {},
        events: session?.events ?? [],
      };
    },
    forget: async (threadId) => {
      const ids = new Set([threadId, ...branches.list(threadId).map((b) => b.sessionId)]);
      for (const sessionId of ids) await services.sessions.delete({ appName, userId, sessionId });
      branches.forget(threadId);
    },
    execute: async (request) => {
      const sessionId = await sessionOf(request);
      let steps = 0;
      const onEvent = (event: RunEvent) => {
        if (event.type === 'step-start' && event.path.length === 0) steps++;
        if (services.recalls) logRecall(event, request, services);
        request.onEvent(event);
      };
      const ref = {
        userId,
        sessionId,
        signal: request.signal,
        runId: request.runId,
        callbacks: { onEvent },
        interruptBefore: request.breakpoints.before,
        interruptAfter: request.breakpoints.after,
        ...(request.checkpointId === undefined ? {} : { checkpointId: request.checkpointId }),
      };
      const input = request.input;
      const events = isMessage(input)
        ? runner.run({ ...ref, message: input.input })
        : runner.resume({ ...ref, ...(isCommand(input) ? { decisions: input.resume } : {}) });
      let last: AgentEvent | undefined;
      for await (const event of events) if (!event.partial) last = event;
      if (last?.error) throw new WeftError('ABORTED', `${last.error.code}: ${last.error.message}`);
      const state = await graph.getState(request.threadId);
      const interrupts = last?.interrupts ?? [];
      const paused = interrupts.length > 0 || (state?.next.length ?? 0) > 0;
      return {
        status: paused ? 'interrupted' : 'done',
        steps,
        interrupts,
        checkpointId: state?.checkpointId,
      };
    },
  };
}

function isMessage(input: unknown): input is { input: string } {
  return (
    typeof input === 'object' && input !== null && typeof (input as { input?: unknown }).input === 'string'
  );
}

function logRecall(event: RunEvent, request: RunRequest, services: AgentServices): void {
  const recall = recallOf(event);
  if (!recall || !services.recalls) return;
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
