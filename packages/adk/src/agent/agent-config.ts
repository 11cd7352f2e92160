import type { ZodType } from 'zod';
import type { ChatModel, ChatModelCallOptions } from '../model/chat-model.js';
import type { ModelRegistry } from '../model/model-registry.js';
import type { AnyTool } from '../tool/tool.js';
import type { Agent } from './agent.js';
import type { Instruction } from './instruction.js';
import type { AgentMiddleware } from './middleware.js';

/** Options of a {@link ChatModelAgent}. */
export interface ChatModelAgentOptions<
  TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> {
  /** Unique within a team of agents: letters, digits, `_` or `-`. */
  readonly name: TName;
  /** What the agent does (shown to other agents choosing whom to transfer to). */
  readonly description?: string;
  /** The system instruction: a `{key}` template over session state, or a function. */
  readonly instruction?: Instruction;
  /** The model, or a `provider:model-id` string resolved with `models`. */
  readonly model: ChatModel | string;
  /** Resolves a string `model` (see `modelRegistry`); there is no global registry. */
  readonly models?: ModelRegistry;
  readonly tools?: readonly AnyTool[];
  /** Model calls allowed per invocation (default 20); `MaxIterationsError` beyond. */
  readonly maxIterations?: number;
  /** Session state key that receives the final output. */
  readonly outputKey?: string;
  /** Validates the final answer (JSON); one repair round is asked of the model on failure. */
  readonly outputSchema?: ZodType;
  /** Add an `exit` tool the model calls with its final result to end the agent. */
  readonly exitTool?: boolean;
  /** Tool names whose result ends the agent (in addition to tools marked `returnDirectly`). */
  readonly returnDirectly?: readonly string[];
  readonly middleware?: readonly AgentMiddleware[];
  /**
   * Agents this one may transfer the conversation to: the agent then runs as the root of a team (see
   * `createTeam`), with a `transfer_to_agent` tool and the targets listed in its instruction.
   */
  readonly subAgents?: TSubAgents;
  /** In a team: do not offer a transfer back to the parent agent (default: allowed). */
  readonly disallowTransferToParent?: boolean;
  /** In a team: do not offer transfers to the parent's other sub-agents (default: allowed). */
  readonly disallowTransferToPeers?: boolean;
  /** Options passed to every model call (temperature, maxTokens...). */
  readonly modelOptions?: Omit<ChatModelCallOptions, 'tools' | 'signal' | 'responseFormat'>;
  /** Tool calls run at once (default: all). */
  readonly toolConcurrency?: number;
  /** Timeout of each tool call unless the tool sets its own. */
  readonly toolTimeoutMs?: number;
  /** `return` (default): tool failures become tool messages the model reads; `throw`: they fail the run. */
  readonly onToolError?: 'return' | 'throw';
}

/** The per-run copy of an agent's configuration that hooks see (mutating it never changes the agent). */
export interface AgentRunConfig {
  readonly name: string;
  readonly tools: readonly AnyTool[];
  readonly modelOptions: Omit<ChatModelCallOptions, 'tools' | 'signal' | 'responseFormat'>;
}
