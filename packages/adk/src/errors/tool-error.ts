import { AdkError } from './adk-error.js';

/**
 * The codes a {@link ToolError} can carry.
 *
 * @example
 * ```ts
 * const code: ToolErrorCode = 'INVALID_TOOL_ARGUMENTS';
 * ```
 */
export type ToolErrorCode = 'TOOL_ERROR' | 'TOOL_NOT_FOUND' | 'INVALID_TOOL_ARGUMENTS' | 'TOOL_TIMEOUT';

/**
 * Options of the {@link ToolError} constructor.
 *
 * @example
 * ```ts
 * const cause = new Error('ENOSPC');
 * throw new ToolError('TOOL_ERROR', 'disk full', { tool: 'save', toolCallId: 'call_1', cause });
 * ```
 */
export interface ToolErrorOptions {
  /** The tool the model asked for. */
  readonly tool: string;
  /** The id of the tool call that failed. */
  readonly toolCallId: string;
  /** The original error, if the tool threw. */
  readonly cause?: unknown;
}

/**
 * A tool call failed: unknown tool, bad arguments, timeout, or the tool threw. Thrown by
 * `executeToolCalls` with `onToolError: 'throw'`; with `'return'` its message becomes a tool message.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const tools = [add];
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1 } }] }]); // b is missing
 * const message = await model.generate([userMessage('What is 1 + 2?')], { tools: [add.spec] });
 * try {
 *   await executeToolCalls(message.toolCalls ?? [], tools, { onToolError: 'throw' });
 * } catch (error) {
 *   if (error instanceof ToolError) console.log(error.code, error.tool, error.toolCallId);
 * }
 * ```
 */
export class ToolError extends AdkError {
  /** The tool the model asked for. */
  readonly tool: string;
  /** The id of the tool call that failed. */
  readonly toolCallId: string;

  constructor(code: ToolErrorCode, message: string, options: ToolErrorOptions) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    this.tool = options.tool;
    this.toolCallId = options.toolCallId;
  }
}
