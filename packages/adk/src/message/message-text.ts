import type { Message, MessageContent } from './message.js';

/**
 * The text of a message: its string content, or its text parts joined, with JSON parts written as
 * JSON text. Media (image, file, audio) and reasoning parts contribute nothing.
 *
 * @example
 * ```ts
 * messageText(userMessage([{ type: 'text', text: 'a' }, { type: 'json', value: { b: 1 } }])); // 'a{"b":1}'
 * ```
 */
export function messageText(message: Message | { readonly content: MessageContent }): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'json') text += JSON.stringify(part.value);
  }
  return text;
}
