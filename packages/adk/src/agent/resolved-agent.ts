import type { ZodType } from 'zod';
import type { MessagesUpdate } from '../message/messages-reducer.js';
import type { ChatModel, ChatModelCallOptions } from '../model/chat-model.js';
import type { TeamPlace } from '../multi/transfer.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentRunContext } from './agent-context.js';
import type { AgentState } from './agent-state.js';
import type { Instruction } from './instruction.js';
import type { InvocationState } from './invocation-state.js';
import type { AgentMiddleware, MiddlewareContext } from './middleware.js';
import { type ModelCallContext, reportedModel } from './reported-model.js';

/** An agent's options with defaults applied, shared by its graph's nodes. Never mutated. */
export interface ResolvedAgent {
  readonly name: string;
  readonly description: string;
  readonly instruction: Instruction | undefined;
  readonly model: ChatModel;
  readonly tools: readonly AnyTool[];
  readonly toolsByName: ReadonlyMap<string, AnyTool>;
  readonly maxIterations: number;
  readonly outputKey: string | undefined;
  readonly outputSchema: ZodType | undefined;
  readonly returnDirectly: ReadonlySet<string>;
  readonly middleware: readonly AgentMiddleware[];
  readonly modelOptions: Omit<ChatModelCallOptions, 'tools' | 'signal' | 'responseFormat'>;
  readonly toolConcurrency: number;
  readonly toolTimeoutMs: number | undefined;
  readonly onToolError: 'return' | 'throw';
  /** Set when the agent runs in a team: whom it may transfer to (its tools then hold `transfer_to_agent`). */
  readonly transfer?: TeamPlace | undefined;
}

/** What the hooks of one agent node see of its run, and where their history updates go. */
export interface MiddlewareScope
  extends Pick<MiddlewareContext, 'emit' | 'signal' | 'sessionKey' | 'memory'> {
  /** Collects the history updates hooks ask for; when not given, they are dropped. */
  readonly historyUpdates?: MessagesUpdate[] | undefined;
  /** The node the hooks run in: models they call through `ctx.reportedModel` are reported on its run. */
  readonly node?: ModelCallContext | undefined;
}

/**
 * What the hooks of the node `node` see of their run: the node itself (models they call through
 * `ctx.reportedModel` are reported on its run), and — under a Runner — the session key and the Runner's
 * memory service (`ctx.memory`, which `recall()` and `memorize()` default to).
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ user: z.string() })).addNode('who', (_state, ctx) => ({
 *   user: hookScope(agentContextOf(ctx.config), ctx).sessionKey?.userId ?? 'nobody',
 * }));
 * ```
 */
export function hookScope(
  run: AgentRunContext,
  node: ModelCallContext,
): Pick<MiddlewareScope, 'node' | 'sessionKey' | 'memory'> {
  if (!run.session) return { node };
  return run.memory
    ? { node, sessionKey: run.session, memory: run.memory }
    : { node, sessionKey: run.session };
}

/** Builds the context hooks receive, collecting history updates they ask for. */
export function middlewareContext(
  agent: ResolvedAgent,
  state: AgentState,
  session: InvocationState,
  scope: MiddlewareScope = {},
): MiddlewareContext {
  const { historyUpdates, node, ...run } = scope;
  return {
    agentName: agent.name,
    state,
    session,
    iteration: state.iterations,
    updateHistory: (update) => {
      historyUpdates?.push(update);
    },
    ...(node
      ? { reportedModel: (model: ChatModel) => reportedModel(node, model, { agent: agent.name }) }
      : {}),
    ...run,
  };
}
