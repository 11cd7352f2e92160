import type { ZodType } from 'zod';
import type { MessagesUpdate } from '../message/messages-reducer.js';
import type { ChatModel, ChatModelCallOptions } from '../model/chat-model.js';
import type { TeamPlace } from '../multi/transfer.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentState } from './agent-state.js';
import type { Instruction } from './instruction.js';
import type { InvocationState } from './invocation-state.js';
import type { AgentMiddleware, MiddlewareContext } from './middleware.js';

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
}

/** Builds the context hooks receive, collecting history updates they ask for. */
export function middlewareContext(
  agent: ResolvedAgent,
  state: AgentState,
  session: InvocationState,
  scope: MiddlewareScope = {},
): MiddlewareContext {
  const { historyUpdates, ...run } = scope;
  return {
    agentName: agent.name,
    state,
    session,
    iteration: state.iterations,
    updateHistory: (update) => {
      historyUpdates?.push(update);
    },
    ...run,
  };
}
