import type { AgentEvent } from '../event/agent-event.js';

/** The config key under which a Runner passes its invocation context to agent graphs. */
export const AGENT_CONTEXT_KEY = '__weft_agent__';

/** A safe point where a requested cancel can stop an agent. */
export type SafePoint = 'afterModel' | 'afterTools';

/** An event as agent nodes create it; the Runner fills in id, invocation and time. */
export type AgentEventInit = Omit<AgentEvent, 'id' | 'invocationId' | 'timestamp'> & {
  readonly timestamp?: number;
};

/**
 * What an agent graph's nodes share with the Runner for one invocation: session state, `temp:` keys,
 * event delivery and cancel requests. Passed in `config` under {@link AGENT_CONTEXT_KEY}; when an agent
 * graph runs without a Runner, a detached context is used (no session, events dropped).
 */
export interface AgentRunContext {
  readonly invocationId: string;
  /** Session state at the start of the invocation (merged session, `user:` and `app:` keys). */
  readonly sessionState: Readonly<Record<string, unknown>>;
  /** `temp:` keys of this invocation, shared by every agent in it. */
  readonly temp: Map<string, unknown>;
  /** Yield token chunks as partial events. */
  readonly streaming: boolean;
  /** Commits an event and forwards it; resolves once it is stored (the agent then continues). */
  emit(event: AgentEventInit): Promise<void>;
  /** Forwards a partial (streaming) event; never stored. */
  emitPartial(event: AgentEventInit): void;
  /** True when a cancel that stops at this safe point was requested. */
  cancelRequested(point: SafePoint): boolean;
}

const detached = (): AgentRunContext => ({
  invocationId: 'detached',
  sessionState: {},
  temp: new Map(),
  streaming: false,
  emit: () => Promise.resolve(),
  emitPartial: () => undefined,
  cancelRequested: () => false,
});

/** The agent context of a run (from `ctx.config`), or a detached one. */
export function agentContextOf(config: Readonly<Record<string, unknown>>): AgentRunContext {
  const context = config[AGENT_CONTEXT_KEY] as AgentRunContext | undefined;
  return context ?? detached();
}
