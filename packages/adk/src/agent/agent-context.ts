import type { AgentEvent } from '../event/agent-event.js';
import type { SessionKey } from '../session/session.js';

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
  /** Where the graph being run sits among agents (sets `branch` on events of nested agents). */
  readonly scope?: AgentScope;
  /** The session the invocation runs in (app, user, session ids); absent outside a Runner. */
  readonly session?: SessionKey;
}

/**
 * The agent path of the graph a run context belongs to: the names of the enclosing agents (outermost
 * first) and the node-path depth at which that graph's nodes start. Nodes deeper than `depth` add the
 * agent nodes they sit in (a sub-agent's node in a workflow or team graph).
 *
 * @example
 * ```ts
 * const scope: AgentScope = { agents: ['host', 'helper'], depth: 1 }; // an agent tool under `tools`
 * ```
 */
export interface AgentScope {
  readonly agents: readonly string[];
  readonly depth: number;
}

/**
 * The agent path of a node, outermost first: the scope's agents, then the agent nodes on the node's
 * path (a team is named after its root agent, so a repeated name counts once).
 *
 * @example
 * ```ts
 * agentPath({ agents: ['research'], depth: 0 }, ['web', 'model']); // ['research', 'web']
 * ```
 */
export function agentPath(scope: AgentScope, nodePath: readonly string[]): string[] {
  const names: string[] = [];
  for (const name of [...scope.agents, ...nodePath.slice(scope.depth, -1)])
    if (names.at(-1) !== name) names.push(name);
  return names;
}

/**
 * The `branch` of an event made by the node at `nodePath`: the agent path joined with `.` when the
 * node belongs to a nested agent; nothing for a lone agent (or a run without a scope).
 *
 * @example
 * ```ts
 * await run.emit({ ...eventBranch(run, ctx.path), author: 'web', actions: {} });
 * ```
 */
export function eventBranch(run: AgentRunContext, nodePath: readonly string[]): { branch?: string } {
  const { scope } = run;
  if (!scope) return {};
  const path = agentPath(scope, nodePath);
  return path.length > 1 || nodePath.length - 1 > scope.depth ? { branch: path.join('.') } : {};
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

/**
 * The run context of the node at `nodePath`, whose `emit` and `emitPartial` put the node's
 * {@link eventBranch} on every event (an event's own `branch` wins).
 *
 * @example
 * ```ts
 * const run = agentContextFor(ctx);
 * await run.emit({ author: agent.name, message: reply, actions: {} }); // branch: 'research.web'
 * ```
 */
export function agentContextFor(ctx: {
  readonly config: Readonly<Record<string, unknown>>;
  readonly path: readonly string[];
}): AgentRunContext {
  const run = agentContextOf(ctx.config);
  const branch = eventBranch(run, ctx.path);
  if (branch.branch === undefined) return run;
  return {
    ...run,
    emit: (event) => run.emit({ ...branch, ...event }),
    emitPartial: (event) => run.emitPartial({ ...branch, ...event }),
  };
}

/** The agent context of a run (from `ctx.config`), or a detached one. */
export function agentContextOf(config: Readonly<Record<string, unknown>>): AgentRunContext {
  const context = config[AGENT_CONTEXT_KEY] as AgentRunContext | undefined;
  return context ?? detached();
}
