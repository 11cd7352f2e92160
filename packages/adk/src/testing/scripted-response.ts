import { AdkError } from '../errors/adk-error.js';
import type { AssistantMessage, Message, ToolCall, Usage } from '../message/message.js';
import type { MessageChunk } from '../message/message-chunk.js';
import { assistantMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';

/**
 * A tool call in a {@link ScriptedTurn}; the id is generated when omitted and object arguments are
 * written as JSON.
 *
 * @example
 * ```ts
 * const call: ScriptedToolCall = { name: 'add', arguments: { a: 1, b: 2 } };
 * ```
 */
export interface ScriptedToolCall {
  /** The call id; default `call_<model name>_<call index>_<position>` (unique across differently named models). */
  readonly id?: string;
  readonly name: string;
  readonly arguments?: string | Readonly<Record<string, unknown>>;
}

/**
 * A shorthand for an assistant answer: text, tool calls, or both.
 *
 * @example
 * ```ts
 * const turn: ScriptedTurn = { text: 'Adding…', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] };
 * ```
 */
export interface ScriptedTurn {
  readonly id?: string;
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Token counts to report; estimated (4 characters a token) when omitted. */
  readonly usage?: Usage;
}

/**
 * One scripted answer: text, an assistant message, a {@link ScriptedTurn}, or an `Error` to throw.
 *
 * @example
 * ```ts
 * const script: ScriptedResponse[] = ['Hello!', { toolCalls: [{ name: 'search', arguments: { q: 'x' } }] }, new Error('boom')];
 * ```
 */
export type ScriptedResponse = string | Error | AssistantMessage | ScriptedTurn;

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function toToolCalls(calls: readonly ScriptedToolCall[], idPrefix: string): ToolCall[] {
  return calls.map((call, index) => ({
    id: call.id ?? `${idPrefix}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
}

/**
 * Turns a scripted answer into the assistant message to return, with usage filled in. Tool calls
 * without an id get `<idPrefix>_<position>`.
 *
 * @example
 * ```ts
 * const message = toAssistantMessage('Hello', [userMessage('Hi')], 'call_scripted_0');
 * ```
 */
export function toAssistantMessage(
  response: Exclude<ScriptedResponse, Error>,
  messages: readonly Message[],
  idPrefix: string,
): AssistantMessage {
  const message: AssistantMessage =
    typeof response === 'string'
      ? assistantMessage(response)
      : 'role' in response
        ? response
        : assistantMessage(response.text ?? '', {
            toolCalls: toToolCalls(response.toolCalls ?? [], idPrefix),
            ...(response.usage === undefined ? {} : { usage: response.usage }),
            ...(response.id === undefined ? {} : { id: response.id }),
          });
  if (message.usage !== undefined) return message;
  const inputTokens = estimateTokens(messages.map((entry) => messageText(entry)).join(''));
  const written =
    messageText(message) + (message.toolCalls ?? []).map((call) => call.name + call.arguments).join('');
  const outputTokens = estimateTokens(written);
  return Object.assign({}, message, {
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  });
}

/**
 * Splits text into words (with their trailing spaces), or into pieces of `size` characters.
 *
 * @example
 * ```ts
 * splitText('one two', undefined); // ['one ', 'two']
 * ```
 */
export function splitText(text: string, size: number | undefined): string[] {
  if (text === '') return [];
  if (size === undefined) return text.match(/\s+|\S+\s*/g) ?? [text];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += Math.max(1, size))
    pieces.push(text.slice(start, start + size));
  return pieces;
}

/**
 * The chunks a scripted message streams as: text pieces, then each tool call in two deltas (id, name
 * and the first half of the arguments, then the rest), then the usage.
 *
 * @example
 * ```ts
 * const message: AssistantMessage = { role: 'assistant', content: 'Hello there' };
 * toChunks(message, 5).map((chunk) => chunk.text); // ['Hello', ' ther', 'e']
 * ```
 */
export function toChunks(message: AssistantMessage, chunkSize: number | undefined): MessageChunk[] {
  const chunks: MessageChunk[] = splitText(messageText(message), chunkSize).map((text) => ({ text }));
  (message.toolCalls ?? []).forEach((call, index) => {
    const half = Math.ceil(call.arguments.length / 2);
    chunks.push({
      toolCallDeltas: [{ index, id: call.id, name: call.name, arguments: call.arguments.slice(0, half) }],
    });
    chunks.push({ toolCallDeltas: [{ index, arguments: call.arguments.slice(half) }] });
  });
  if (message.usage !== undefined) chunks.push({ usage: message.usage });
  if (message.id !== undefined) chunks[0] = { ...chunks[0], id: message.id };
  return chunks;
}

/**
 * The error for a call the script has no answer for.
 *
 * @example
 * ```ts
 * throw scriptExhausted('demo', 3, 3);
 * ```
 */
export function scriptExhausted(name: string, callIndex: number, length: number | undefined): AdkError {
  const source =
    length === undefined ? 'the script function returned nothing' : `the script has ${length} response(s)`;
  return new AdkError(
    'SCRIPT_EXHAUSTED',
    `ScriptedChatModel "${name}": no response scripted for call #${callIndex} (calls count from 0; ${source}). Add a response to the script, or find out why the model was called again.`,
  );
}
