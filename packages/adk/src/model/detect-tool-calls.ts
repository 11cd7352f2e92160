import type { AssistantMessage } from '../message/message.js';
import { concatMessageChunks, type MessageChunk } from '../message/message-chunk.js';

/**
 * The answer of {@link streamUntilToolCall}: whether the streamed message calls tools, decided as soon
 * as the first tool-call delta arrived (or when the stream ended without one).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Sunny, 21 °C.']);
 * const messages = [userMessage('Weather in Oslo?')];
 * const detection: ToolCallDetection = await streamUntilToolCall(model.stream(messages)); // hasToolCalls: false
 * ```
 */
export interface ToolCallDetection {
  /** True when at least one tool-call delta was seen. */
  readonly hasToolCalls: boolean;
  /** The chunks read while deciding, the one with the first tool call included. */
  readonly readChunks: readonly MessageChunk[];
  /**
   * Every chunk of the stream from the very first (the ones already read, then the rest); iterate it
   * once. Use it to forward the stream after the decision. Leaving the loop early closes the source.
   */
  readonly chunks: AsyncIterable<MessageChunk>;
  /** Reads the rest of the stream (if not read yet) and returns the whole concatenated message. */
  message(): Promise<AssistantMessage>;
}

/**
 * The result of {@link detectToolCalls}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Sunny, 21 °C.']);
 * const messages = [userMessage('Weather in Oslo?')];
 * const { hasToolCalls, message }: DetectedToolCalls = await detectToolCalls(model.stream(messages));
 * ```
 */
export interface DetectedToolCalls {
  readonly hasToolCalls: boolean;
  /** The whole streamed message. */
  readonly message: AssistantMessage;
}

function hasToolCallDelta(chunk: MessageChunk): boolean {
  return chunk.toolCallDeltas !== undefined && chunk.toolCallDeltas.length > 0;
}

/** A single reader over the source that remembers every chunk, so they can be replayed. */
function bufferedReader(stream: AsyncIterable<MessageChunk>) {
  const iterator = stream[Symbol.asyncIterator]();
  const buffer: MessageChunk[] = [];
  let done = false;
  let pending: Promise<void> | undefined;
  const pull = (): Promise<void> => {
    pending ??= iterator.next().then((result) => {
      pending = undefined;
      if (result.done === true) done = true;
      else buffer.push(result.value);
    });
    return pending;
  };
  return {
    buffer,
    isDone: () => done,
    pull,
    async drain(): Promise<void> {
      while (!done) await pull();
    },
    /** Stops reading (closing the source) if it has not ended yet. */
    async close(): Promise<void> {
      await pending;
      if (done) return;
      done = true;
      await iterator.return?.();
    },
  };
}

/**
 * Reads a stream until the first tool call appears or the stream ends — never only the first chunk,
 * so models that stream text before their tool calls are detected too — and returns the decision with
 * a replay of the stream and a way to get the whole message.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const weather = tool({
 *   name: 'weather',
 *   description: 'The weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] }]);
 * const messages: Message[] = [userMessage('Weather in Oslo?')];
 * const detection = await streamUntilToolCall(model.stream(messages, { tools: [weather.spec] }));
 * if (detection.hasToolCalls) {
 *   const reply = await detection.message();
 *   messages.push(reply, ...(await executeToolCalls(reply.toolCalls ?? [], [weather])));
 * }
 * else for await (const chunk of detection.chunks) process.stdout.write(chunk.text ?? '');
 * ```
 */
export async function streamUntilToolCall(stream: AsyncIterable<MessageChunk>): Promise<ToolCallDetection> {
  const reader = bufferedReader(stream);
  let hasToolCalls = false;
  while (!hasToolCalls && !reader.isDone()) {
    const before = reader.buffer.length;
    await reader.pull();
    const added = reader.buffer[before];
    hasToolCalls = added !== undefined && hasToolCallDelta(added);
  }
  const readChunks = [...reader.buffer];
  async function* chunks(): AsyncGenerator<MessageChunk> {
    try {
      for (let index = 0; ; index++) {
        while (index >= reader.buffer.length && !reader.isDone()) await reader.pull();
        const chunk = reader.buffer[index];
        if (chunk === undefined) return;
        yield chunk;
      }
    } finally {
      await reader.close();
    }
  }
  return {
    hasToolCalls,
    readChunks,
    chunks: chunks(),
    async message() {
      await reader.drain();
      return concatMessageChunks(reader.buffer);
    },
  };
}

/**
 * Reads a whole stream and tells whether the message calls tools, with the concatenated message.
 * Unlike checking the first chunk, it finds tool calls that follow streamed text.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const weather = tool({
 *   name: 'weather',
 *   description: 'The weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 * const model = new ScriptedChatModel([{ text: 'Let me check.', toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] }]);
 * const messages = [userMessage('Weather in Oslo?')];
 * const { hasToolCalls, message } = await detectToolCalls(model.stream(messages, { tools: [weather.spec] })); // true
 * ```
 */
export async function detectToolCalls(stream: AsyncIterable<MessageChunk>): Promise<DetectedToolCalls> {
  const detection = await streamUntilToolCall(stream);
  const message = await detection.message();
  return { hasToolCalls: detection.hasToolCalls, message };
}
