import type { NodeContext } from '@weft/compose';
import type { ArtifactService } from '../artifact/artifact-service.js';
import type { AgentEventInit } from '../event/agent-event.js';
import type { MemoryService } from '../memory/memory-service.js';
import type { RunIdentity } from '../session/run-identity.js';
import type { AgentMiddleware } from './middleware.js';

/** The config key under which a Runner passes its invocation context to agent graphs. */
export const AGENT_CONTEXT_KEY = '__weft_agent__';

/** A safe point where a requested cancel can stop an agent. */
export type SafePoint = 'afterModel' | 'afterTools';

/**
 * What an agent graph's nodes share with the Runner for one invocation that is not an event: session
 * state at the start, `temp:` keys and cancel requests (events go on compose's event stream, ADR 014).
 * Passed in `config` under {@link AGENT_CONTEXT_KEY}; when an agent graph runs without a Runner, a
 * detached context is used (no session state, no cancel).
 */
export interface AgentRunContext {
  readonly invocationId: string;
  /** Session state at the start of the invocation (merged session, `user:` and `app:` keys). */
  readonly sessionState: Readonly<Record<string, unknown>>;
  /** `temp:` keys of this invocation, shared by every agent in it. */
  readonly temp: Map<string, unknown>;
  /**
   * `false` when the Runner wants whole replies (its `streaming: false`): models are then called
   * without streaming although the Runner subscribes to the run's events.
   */
  readonly streaming?: boolean;
  /** True when a cancel that stops at this safe point was requested. */
  readonly cancelRequested: (point: SafePoint) => boolean;
  /** Where the graph being run sits among agents (sets `branch` on events of nested agents). */
  readonly scope?: AgentScope;
  /** The session the invocation runs in (app, user, session ids, and the tenant if given); absent outside a Runner. */
  readonly session?: RunIdentity;
  /** Middleware of the Runner's plugins, run around every agent's own (the first plugin outermost). */
  readonly plugins?: readonly AgentMiddleware[];
  /** The Runner's artifact service (tools reach it as `context.artifacts`). */
  readonly artifacts?: ArtifactService;
  /** The Runner's memory service (tools reach it as `context.memory`, middleware as `ctx.memory`). */
  readonly memory?: MemoryService;
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
 * const graph = new StateGraph(z.object({ branch: z.string() })).addNode('where', (_state, ctx) => ({
 *   branch: eventBranch(agentContextOf(ctx.config), ctx.path).branch ?? '', // 'research.web' in a team member
 * }));
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
  cancelRequested: () => false,
});

/**
 * Reports an agent event on the run's event stream (an `agent` event) with the node's
 * {@link eventBranch} (an event's own `branch` wins), and resolves once the run's `observe` subscriber
 * took it: under a Runner, once it is committed to the session, so the agent continues on committed
 * state. A no-op when nobody listens.
 *
 * @throws whatever the subscriber failed with (a session store error, for one).
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ done: z.boolean() })).addNode('notify', async (_state, ctx) => {
 *   const message = assistantMessage('Indexing the documents…');
 *   await reportAgentEvent(ctx, { author: 'indexer', message, actions: {} }); // branch: 'research.web' in a team
 *   return { done: true };
 * });
 * ```
 */
export async function reportAgentEvent(
  ctx: Pick<NodeContext, 'config' | 'path' | 'report'>,
  init: AgentEventInit,
): Promise<void> {
  const event = { ...eventBranch(agentContextOf(ctx.config), ctx.path), ...init };
  const wait = ctx.report({ type: 'agent', agent: init.author, event });
  if (wait) await wait;
}

/**
 * The `branch` the chunks of the node at `ctx.path` carry (see {@link eventBranch}).
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ text: z.string() })).addNode('speak', async (state, ctx) => {
 *   for (const token of state.text.split(' ')) await ctx.chunk(token, { agent: 'speaker', ...chunkBranch(ctx) });
 *   return {};
 * });
 * ```
 */
export function chunkBranch(ctx: Pick<NodeContext, 'config' | 'path'>): { branch?: string } {
  return eventBranch(agentContextOf(ctx.config), ctx.path);
}

/**
 * Whether a node should stream its model call: someone reads chunks (`ctx.streaming`) and the Runner
 * did not ask for whole replies.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Hello there!']);
 * const graph = new StateGraph(z.object({ text: z.string() })).addNode('answer', async (_state, ctx) => {
 *   const messages = [userMessage('Hi')];
 *   if (!streamsModel(ctx)) return { text: messageText(await model.generate(messages)) };
 *   let text = '';
 *   for await (const chunk of model.stream(messages)) {
 *     if (chunk.text) await ctx.chunk(chunk.text, chunkBranch(ctx));
 *     text += chunk.text ?? '';
 *   }
 *   return { text };
 * });
 * ```
 */
export function streamsModel(ctx: Pick<NodeContext, 'config' | 'streaming'>): boolean {
  return ctx.streaming && agentContextOf(ctx.config).streaming !== false;
}

/** The agent context of a run (from `ctx.config`), or a detached one. */
export function agentContextOf(config: Readonly<Record<string, unknown>>): AgentRunContext {
  const context = config[AGENT_CONTEXT_KEY] as AgentRunContext | undefined;
  return context ?? detached();
}
