import type { Usage } from '../message/message.js';
import { splitText } from './scripted-response.js';

/**
 * A tool call the loopback server answers with; the id is generated when omitted, object arguments
 * are written as JSON.
 *
 * @example
 * ```ts
 * const call: ServerToolCall = { name: 'get_weather', arguments: { city: 'Oslo' } };
 * ```
 */
export interface ServerToolCall {
  readonly id?: string;
  readonly name: string;
  readonly arguments?: string | Readonly<Record<string, unknown>>;
}

/**
 * A scripted answer of the loopback server: an assistant message (text and/or tool calls) or an HTTP
 * error. `stallAfterChunks` makes a streamed answer stop after that many SSE events and hold the
 * connection open until the client goes away (to test aborts mid-stream).
 *
 * @example
 * ```ts
 * const script: ServerReply[] = [{ error: { status: 429 } }, { text: 'Hello there!' }];
 * ```
 */
export type ServerReply =
  | {
      readonly text?: string;
      readonly toolCalls?: readonly ServerToolCall[];
      readonly usage?: Usage;
      readonly stallAfterChunks?: number;
    }
  | {
      readonly error: {
        readonly status: number;
        readonly message?: string;
        readonly headers?: Readonly<Record<string, string>>;
      };
    };

/**
 * An answer resolved into what goes on the wire.
 *
 * @example
 * ```ts
 * const answer: ResolvedAnswer = resolveAnswer({ text: 'hi' }, { index: 0, model: 'm', promptText: '' });
 * ```
 */
export interface ResolvedAnswer {
  readonly id: string;
  readonly model: string;
  readonly text: string;
  readonly toolCalls: readonly { id: string; name: string; arguments: string }[];
  readonly usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * Fills in ids, JSON arguments and usage of a scripted answer.
 *
 * @example
 * ```ts
 * const answer = resolveAnswer({ toolCalls: [{ name: 'f' }] }, { index: 2, model: 'm', promptText: '[]' });
 * ```
 */
export function resolveAnswer(
  reply: Exclude<ServerReply, { error: unknown }>,
  context: { readonly index: number; readonly model: string; readonly promptText: string },
): ResolvedAnswer {
  const text = reply.text ?? '';
  const toolCalls = (reply.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${context.index}_${position}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  const prompt = reply.usage?.inputTokens ?? Math.ceil(context.promptText.length / 4);
  const written = text + toolCalls.map((call) => call.name + call.arguments).join('');
  const completion = reply.usage?.outputTokens ?? Math.ceil(written.length / 4);
  return {
    id: `chatcmpl-${context.index}`,
    model: context.model,
    text,
    toolCalls,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

function finishReason(answer: ResolvedAnswer): 'tool_calls' | 'stop' {
  return answer.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

/**
 * The JSON body of a non-streaming chat completion.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * const answer = resolveAnswer({ text: 'Hello!' }, { index: 0, model: 'test-model', promptText: '[]' });
 * const server = createServer((_request, response) => {
 *   response.setHeader('content-type', 'application/json');
 *   response.end(JSON.stringify(completionBody(answer)));
 * });
 * ```
 */
export function completionBody(answer: ResolvedAnswer): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: answer.text, refusal: null };
  if (answer.toolCalls.length > 0) {
    message.content = answer.text === '' ? null : answer.text;
    message.tool_calls = answer.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: answer.id,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: answer.model,
    choices: [{ index: 0, message, finish_reason: finishReason(answer), logprobs: null }],
    usage: answer.usage,
  };
}

/** Splits a string into `count` nearly equal pieces (fewer for short strings). */
function pieces(value: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(value.length / count));
  const result: string[] = [];
  for (let start = 0; start < value.length; start += size) result.push(value.slice(start, start + size));
  return result;
}

/**
 * The SSE chunk bodies of a streamed answer: a role chunk, the text in pieces of `chunkSize`
 * characters, each tool call as a header delta (id, name) followed by argument fragments, a finish
 * chunk, and the usage chunk when `includeUsage`.
 *
 * @example
 * ```ts
 * const answer = resolveAnswer({ text: 'Hello!' }, { index: 0, model: 'test-model', promptText: '[]' });
 * const lines: string[] = [];
 * for (const body of streamBodies(answer, { chunkSize: 4, argumentPieces: 3, includeUsage: true })) lines.push(`data: ${body}`);
 * ```
 */
export function streamBodies(
  answer: ResolvedAnswer,
  options: { readonly chunkSize: number; readonly argumentPieces: number; readonly includeUsage: boolean },
): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: answer.id,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: answer.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const bodies: Record<string, unknown>[] = [chunk({ role: 'assistant', content: '' })];
  for (const text of splitText(answer.text, options.chunkSize)) bodies.push(chunk({ content: text }));
  answer.toolCalls.forEach((call, index) => {
    const header = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    bodies.push(chunk({ tool_calls: [header] }));
    for (const fragment of pieces(call.arguments, options.argumentPieces)) {
      bodies.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  bodies.push(chunk({}, finishReason(answer)));
  if (options.includeUsage) {
    bodies.push({ ...chunk({}), choices: [], usage: answer.usage });
  }
  return bodies;
}
