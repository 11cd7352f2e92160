import type { MessageContent } from '../message/message.js';

const marker = Symbol.for('weft.adk.tool-result');

/**
 * A tool result given as message content (text, images, JSON parts) instead of a value to convert, made
 * by {@link toolResult}. The agent sends `content` to the model as it is; `isError` marks the tool
 * message `status: 'error'` (the tool ran and reports a failure the model should read).
 *
 * @example
 * ```ts
 * const result: ToolResult = toolResult([{ type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }]);
 * ```
 */
export interface ToolResult {
  readonly [marker]: true;
  readonly content: MessageContent;
  readonly isError: boolean;
}

/**
 * Wraps what a tool's `execute` returns when the result is message content rather than a value: a
 * string or a list of parts (an image part reaches the model as an image, which a plain return value
 * never does). With `{ isError: true }` the tool message gets `status: 'error'`.
 *
 * @example
 * ```ts
 * const screenshot = tool({
 *   name: 'screenshot',
 *   description: 'Takes a screenshot of the page',
 *   parameters: z.object({}),
 *   execute: async () => {
 *     const png = Buffer.from(await (await fetch('https://example.com/screenshot.png')).arrayBuffer());
 *     return toolResult([{ type: 'image', url: `data:image/png;base64,${png.toString('base64')}` }]);
 *   },
 * });
 * ```
 */
export function toolResult(
  content: MessageContent,
  options: { readonly isError?: boolean } = {},
): ToolResult {
  return { [marker]: true, content, isError: options.isError === true };
}

/**
 * True when a tool returned a {@link ToolResult} (also one made by another copy of this package).
 *
 * @example
 * ```ts
 * const value: unknown = toolResult('Saved.', { isError: false });
 * const content = isToolResult(value) ? value.content : JSON.stringify(value); // 'Saved.'
 * ```
 */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
}
