import {
  type AgentMiddleware,
  type AnyTool,
  type ChatModel,
  ChatModelAgent,
  type ChatModelAgentOptions,
  type Instruction,
} from '@weft/adk';
import { type CompactionOptions, compaction } from '@weft/adk/context';
import type { ZodType } from 'zod';

/** Compaction settings of a template; the summarizing model defaults to the agent's. */
export type TemplateCompaction = Omit<CompactionOptions, 'model'> & { readonly model?: ChatModel };

/** Options of {@link createReactAgent}. */
export interface ReactAgentOptions {
  readonly model: ChatModel;
  readonly tools?: readonly AnyTool[];
  readonly instruction?: Instruction;
  /** Default `react_agent`. */
  readonly name?: string;
  readonly description?: string;
  /** Model calls per invocation (default 25). */
  readonly maxIterations?: number;
  /** Validates the final answer as JSON (works together with tools; one repair round). */
  readonly outputSchema?: ZodType;
  /** Session key that receives the final output. */
  readonly outputKey?: string;
  /** Summarize older turns above a token threshold (see `compaction` of `@weft/adk`). */
  readonly compaction?: TemplateCompaction;
  /** Added after the template's own middleware (compaction). */
  readonly middleware?: readonly AgentMiddleware[];
  /** Tool timeout unless a tool sets its own (default 60 s). */
  readonly toolTimeoutMs?: number;
  /** Any other `ChatModelAgent` option, applied last. */
  readonly agentOptions?: Partial<Omit<ChatModelAgentOptions, 'name' | 'model' | 'tools' | 'middleware'>>;
}

/**
 * A ReAct agent with sensible defaults: a `ChatModelAgent` whose tool failures (bad arguments, thrown
 * errors, timeouts) go back to the model as tool messages, with an iteration limit (25), a tool timeout
 * (60 s), optional structured output (`outputSchema`) and optional compaction of long histories. Its graph
 * is the ReAct graph (`agent.graph.toMermaid()`); run it with a `Runner`.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name, duplicate tool names or bad limits.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const agent = createReactAgent({
 *   model: new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, 'It is 3.']),
 *   tools: [add],
 *   instruction: 'You add numbers.',
 * });
 * const state = await agent.graph.invoke({ input: 'What is 1 + 2?' });
 * state.output; // 'It is 3.'
 * ```
 */
export function createReactAgent(options: ReactAgentOptions): ChatModelAgent {
  const middleware: AgentMiddleware[] = [];
  if (options.compaction)
    middleware.push(compaction({ ...options.compaction, model: options.compaction.model ?? options.model }));
  middleware.push(...(options.middleware ?? []));
  return new ChatModelAgent({
    name: options.name ?? 'react_agent',
    model: options.model,
    tools: [...(options.tools ?? [])],
    middleware,
    maxIterations: options.maxIterations ?? 25,
    toolTimeoutMs: options.toolTimeoutMs ?? 60_000,
    onToolError: 'return',
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.instruction === undefined ? {} : { instruction: options.instruction }),
    ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
    ...(options.outputKey === undefined ? {} : { outputKey: options.outputKey }),
    ...options.agentOptions,
  });
}
