import {
  type AgentEventBody,
  Command,
  type ModelCallEvent,
  type RunEvent,
  type RunOptions,
  type Store,
  usageTotalsOf,
} from '@weft/compose';
import { AGENT_CONTEXT_KEY, type AgentRunContext } from '../agent/agent-context.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import { GuardrailTripwireError } from '../agent/guardrails.js';
import type { AgentMiddleware } from '../agent/middleware.js';
import type { ArtifactService } from '../artifact/artifact-service.js';
import type { AgentEvent, AgentInterrupt } from '../event/agent-event.js';
import { eventId } from '../internal/event-id.js';
import type { MemoryService } from '../memory/memory-service.js';
import type { Message } from '../message/message.js';
import type { MessageChunk } from '../message/message-chunk.js';
import { userMessage } from '../message/message-constructors.js';
import type { SessionKey, SessionService } from '../session/session.js';
import { sessionNotFoundError } from '../session/session-commit.js';
import type { CancelState } from './cancel-state.js';

/**
 * The resume input of a turn that stopped without a pause (cancelled, or its process died): it continues
 * from its last checkpoint instead of answering an interrupt (a `Command({ resume })` with nothing pending
 * is an error).
 */
export const nothingPending: unique symbol = Symbol('nothing pending');

/** Everything one invocation needs. */
export interface InvocationArgs {
  readonly graph: AgentGraph;
  readonly agentName: string;
  readonly sessionService: SessionService;
  readonly key: SessionKey;
  readonly threadId: string;
  /** A new user message, or decisions resuming a pause. */
  readonly input: { readonly message: Message | string } | { readonly resume: unknown };
  /** Yield `chunk` events of agents as partial events. */
  readonly streaming: boolean;
  readonly signal: AbortSignal;
  readonly cancel: CancelState;
  /** Receives every event (committed ones after they are stored). */
  readonly push: (event: AgentEvent) => Promise<void> | undefined;
  /** `temp:` keys the turn starts with (from `beforeRun` hooks). */
  readonly temp?: Map<string, unknown>;
  /** The tenant the run is for (reaches tools, models and middleware with the session ids). */
  readonly tenantId?: string;
  /** Middleware of the Runner's plugins, run around every agent's own. */
  readonly plugins?: readonly AgentMiddleware[];
  /** The plugins' `onEvent` hooks: what the caller receives for each event (not the user's message). */
  readonly onEvent?: (event: AgentEvent, invocationId: string) => Promise<AgentEvent>;
  /** Given to tools as `context.artifacts` (bound to the session). */
  readonly artifactService?: ArtifactService;
  /** The run's store (`ctx.store` of every node, `context.store` of every tool). */
  readonly store?: Store;
  /** Given to tools as `context.memory` (bound to the session) and to hooks as `ctx.memory`. */
  readonly memoryService?: MemoryService;
  /** Run options passed through to the graph as they are (see {@link RunPassThrough}). */
  readonly passThrough?: RunPassThrough;
  /** Record on each committed event the last root checkpoint saved before it (`checkpointId`). */
  readonly recordCheckpoints?: boolean;
}

/**
 * Run options a Runner turn passes to the agent graph untouched: event `callbacks` (a subscriber next to
 * the Runner's own), breakpoints and the checkpoint to run from (time travel).
 *
 * @example
 * ```ts
 * const pass: RunPassThrough = { callbacks: { onEvent: (e) => console.log(e.type) }, interruptBefore: ['tools'] };
 * ```
 */
export type RunPassThrough = Pick<
  RunOptions,
  'callbacks' | 'interruptBefore' | 'interruptAfter' | 'checkpointId' | 'runId'
>;

/** An event as the Runner commits it itself (the user message, the closing `turnComplete` event). */
type OwnEventInit = Omit<AgentEvent, 'id' | 'invocationId' | 'timestamp'> & { readonly timestamp?: number };

/**
 * Runs one invocation of an agent graph against a session: commits the user message, runs (or resumes)
 * the graph as a subscriber of its event stream (`observe`) that commits each `agent` event to the session
 * before the reporting node goes on and forwards agents' `chunk` events as partial events, and ends with a
 * committed `turnComplete` event — carrying the interrupts when the run paused, or the error.
 */
export async function runInvocation(args: InvocationArgs): Promise<InvocationOutcome> {
  const session = await args.sessionService.get(args.key, { recentEvents: 0 });
  if (!session) throw sessionNotFoundError(args.key);
  const invocationId = eventId('inv');
  // The position of the next committed event: the last root checkpoint saved (the run starts after the
  // one it continues from).
  let position = args.recordCheckpoints ? await startPosition(args) : undefined;
  const finalize = (init: OwnEventInit): AgentEvent => ({
    ...init,
    ...(position === undefined || init.partial ? {} : { checkpointId: position }),
    id: eventId(),
    invocationId,
    timestamp: init.timestamp ?? Date.now(),
  });
  // What the caller receives of an event: the plugins' replacement, if any.
  const deliver = (event: AgentEvent): Promise<void> | undefined => {
    const { onEvent } = args;
    if (!onEvent) return args.push(event);
    return onEvent(event, invocationId).then((shown) => args.push(shown));
  };
  const commit = async (init: OwnEventInit): Promise<void> => {
    const stored = await args.sessionService.appendEvent(args.key, finalize(init));
    await deliver(stored);
  };
  // The user's message reaches the caller as it was sent (plugins see the agents' events).
  const commitInput = async (init: OwnEventInit): Promise<void> => {
    const stored = await args.sessionService.appendEvent(args.key, finalize(init));
    await args.push(stored);
  };
  // The Runner is an ordinary subscriber of the run's events (ADR 014): the node that reported an agent
  // event waits for this commit, so the agent continues on committed state.
  const calls: ModelCallEvent[] = [];
  const observe = (event: RunEvent): Promise<void> | undefined => {
    if (args.recordCheckpoints && event.type === 'checkpoint-save' && event.path.length === 0)
      position = event.checkpointId;
    if (event.type === 'agent') return commit(agentEventOf(event.event));
    if (event.type === 'model-call') calls.push(event);
    if (event.type !== 'chunk' || event.agent === undefined || !args.streaming) return undefined;
    const { agent, branch, chunk } = event;
    // A chunk an agent sent is a model's message chunk (see the model node).
    const partial = { author: agent, partial: true, chunk: chunk as MessageChunk, actions: {} };
    return deliver(finalize(branch === undefined ? partial : { ...partial, branch }));
  };
  const context: AgentRunContext = {
    invocationId,
    sessionState: session.state,
    temp: args.temp ?? new Map(),
    streaming: args.streaming,
    cancelRequested: (point) => args.cancel.requested(point),
    scope: { agents: [args.agentName], depth: 0 },
    session: args.tenantId === undefined ? args.key : { ...args.key, tenantId: args.tenantId },
    ...(args.plugins && args.plugins.length > 0 ? { plugins: args.plugins } : {}),
    ...(args.artifactService ? { artifacts: args.artifactService } : {}),
    ...(args.memoryService ? { memory: args.memoryService } : {}),
  };
  const graphInput = await graphInputOf(args.input, commitInput);
  // The turn's model calls added up, on its turnComplete event (the run's `run-end` carries the same).
  const totals = (): Pick<OwnEventInit, 'usageTotals'> => {
    const usageTotals = usageTotalsOf(calls);
    return usageTotals ? { usageTotals } : {};
  };
  try {
    const result = await args.graph.run(graphInput, {
      ...args.passThrough,
      threadId: args.threadId,
      signal: args.signal,
      config: { [AGENT_CONTEXT_KEY]: context },
      ...(args.store ? { store: args.store } : {}),
      observe,
    });
    const interrupts: AgentInterrupt[] = result.interrupts.map((i) => ({
      id: i.id,
      value: i.value,
      path: i.path,
    }));
    await commit({
      author: args.agentName,
      actions: {},
      turnComplete: true,
      ...(interrupts.length > 0 ? { interrupts } : {}),
      ...totals(),
    });
    if (interrupts.length === 0) return 'completed';
    return interrupts.some((i) => !isCancelPause(i.value)) ? 'waiting' : 'cancelled';
  } catch (thrown) {
    const cancelled = args.signal.aborted;
    // A guardrail's tripwire is the turn's typed result, whichever node it fired in.
    const error: unknown = (cancelled ? undefined : tripwireIn(thrown)) ?? thrown;
    const code = cancelled ? 'CANCELLED' : ((error as { code?: string }).code ?? 'ERROR');
    const message = error instanceof Error ? error.message : String(error);
    await commit({
      author: args.agentName,
      actions: {},
      turnComplete: true,
      error: { code, message },
      ...totals(),
    });
    if (!cancelled) throw error;
    return 'cancelled';
  }
}

/** The checkpoint a turn starts from: the one it was given, else the thread's latest (if any). */
async function startPosition(args: InvocationArgs): Promise<string | undefined> {
  const at = args.passThrough?.checkpointId;
  if (at !== undefined) return at;
  return (await args.graph.getState(args.threadId))?.checkpointId;
}

/** The graph's input for a new message (committed first as the user's event) or a resume. */
async function graphInputOf(
  input: InvocationArgs['input'],
  commit: (init: OwnEventInit) => Promise<void>,
): Promise<Parameters<AgentGraph['run']>[0]> {
  if ('message' in input) {
    const message = typeof input.message === 'string' ? userMessage(input.message) : input.message;
    await commit({ author: 'user', message, actions: {} });
    return { input: message };
  }
  return input.resume === nothingPending ? null : new Command({ resume: input.resume });
}

/**
 * An agent event as the Runner commits it, from the body an agent node reported: compose types the
 * message structurally (`unknown`); agent nodes report adk messages.
 */
function agentEventOf(body: AgentEventBody): OwnEventInit {
  return body as OwnEventInit;
}

/**
 * How an invocation ended without failing: `completed`, `waiting` (paused for a human or a pending
 * tool) or `cancelled` (stopped at a safe point or at once; resumable).
 */
export type InvocationOutcome = 'completed' | 'waiting' | 'cancelled';

function tripwireIn(error: unknown): GuardrailTripwireError | undefined {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (GuardrailTripwireError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isCancelPause(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'cancelled';
}

/**
 * The checkpoint thread of a session: its app, user and session ids as a JSON array, so no two sessions
 * share a thread whatever their ids hold (`/`, `%`, quotes, unicode).
 *
 * @example
 * ```ts
 * threadOf({ appName: 'shop', userId: 'a', sessionId: 'b/c' }); // '["shop","a","b/c"]'
 * ```
 */
export function threadOf(key: SessionKey): string {
  return JSON.stringify([key.appName, key.userId, key.sessionId]);
}
