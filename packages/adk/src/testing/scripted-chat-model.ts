import { sleep, throwIfAborted } from '../internal/abort.js';
import type { AssistantMessage, Message } from '../message/message.js';
import type { MessageChunk } from '../message/message-chunk.js';
import type { ChatModel, ChatModelCallOptions } from '../model/chat-model.js';
import { type ScriptedResponse, scriptExhausted, toAssistantMessage, toChunks } from './scripted-response.js';

/**
 * Computes the answer of a {@link ScriptedChatModel} from the conversation.
 *
 * @example
 * ```ts
 * const echo: ScriptFunction = (messages) => `You said: ${messageText(messages.at(-1)!)}`;
 * ```
 */
export type ScriptFunction = (
  messages: readonly Message[],
  options: ChatModelCallOptions,
  callIndex: number,
) => ScriptedResponse | Promise<ScriptedResponse>;

/**
 * Options of {@link ScriptedChatModel}.
 *
 * @example
 * ```ts
 * const options: ScriptedChatModelOptions = { name: 'demo', chunkSize: 3, chunkDelayMs: 20 };
 * ```
 */
export interface ScriptedChatModelOptions {
  /** The model's name (default `scripted`). */
  readonly name?: string;
  /** Stream text in pieces of this many characters (default: word by word). */
  readonly chunkSize?: number;
  /** Wait this long before each streamed chunk (default 0: no wait), e.g. to make demos look live. */
  readonly chunkDelayMs?: number;
  /**
   * Awaited before each streamed chunk is yielded (after `chunkDelayMs`), with the chunk and its index
   * in this call's stream: a test holds a stream mid-way by returning a promise it resolves later, so
   * "the first tokens show before the last one exists" is checked without timing.
   */
  readonly beforeChunk?: (chunk: MessageChunk, index: number) => Promise<void> | void;
}

/**
 * One request a {@link ScriptedChatModel} received.
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const model = new ScriptedChatModel(['The sum is 3.']);
 * await model.generate([userMessage('What is 1 + 2?')], { tools: [add.spec] });
 * const first: ScriptedCall | undefined = model.calls[0];
 * expect(first?.options.tools?.map((spec) => spec.name)).toEqual(['add']);
 * ```
 */
export interface ScriptedCall {
  readonly method: 'generate' | 'stream';
  /** A copy of the messages, as they were at the call. */
  readonly messages: readonly Message[];
  readonly options: ChatModelCallOptions;
}

/**
 * A chat model that replays scripted answers — for tests, examples and demos. The script is a list
 * (one answer per call, in order; an `Error` is thrown) or a function of the conversation. Streams
 * text in pieces, tool calls in argument fragments, then usage; honours the abort signal; records every
 * call in {@link ScriptedChatModel.calls}.
 *
 * @throws {AdkError} `SCRIPT_EXHAUSTED` naming the call index when the list has no answer left;
 * `ABORTED` when the call's signal fires.
 * @example
 * ```ts
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const model = new ScriptedChatModel([
 *   { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
 *   'The sum is 3.',
 * ]);
 * const first = await model.generate([userMessage('What is 1 + 2?')], { tools: [add.spec] });
 * ```
 */
export class ScriptedChatModel implements ChatModel {
  readonly name: string;
  readonly #script: readonly ScriptedResponse[] | ScriptFunction;
  readonly #options: ScriptedChatModelOptions;
  readonly #calls: ScriptedCall[] = [];

  constructor(script: readonly ScriptedResponse[] | ScriptFunction, options: ScriptedChatModelOptions = {}) {
    this.name = options.name ?? 'scripted';
    this.#script = typeof script === 'function' ? script : [...script];
    this.#options = options;
  }

  /** Every call received so far, in order. */
  get calls(): readonly ScriptedCall[] {
    return this.#calls;
  }

  async generate(
    messages: readonly Message[],
    options: ChatModelCallOptions = {},
  ): Promise<AssistantMessage> {
    return this.#answer('generate', messages, options);
  }

  async *stream(
    messages: readonly Message[],
    options: ChatModelCallOptions = {},
  ): AsyncIterable<MessageChunk> {
    const message = await this.#answer('stream', messages, options);
    let index = 0;
    for (const chunk of toChunks(message, this.#options.chunkSize)) {
      if (this.#options.chunkDelayMs !== undefined && this.#options.chunkDelayMs > 0) {
        await sleep(this.#options.chunkDelayMs, options.signal);
      }
      await this.#options.beforeChunk?.(chunk, index++);
      throwIfAborted(options.signal, `the stream of model "${this.name}"`);
      yield chunk;
    }
  }

  async #answer(
    method: ScriptedCall['method'],
    messages: readonly Message[],
    options: ChatModelCallOptions,
  ): Promise<AssistantMessage> {
    const callIndex = this.#calls.length;
    this.#calls.push({ method, messages: [...messages], options });
    const what = `the call to model "${this.name}"`;
    throwIfAborted(options.signal, what);
    const script = this.#script;
    let response: ScriptedResponse | undefined;
    if (typeof script === 'function') response = await script(messages, options, callIndex);
    else response = script[callIndex];
    if (response === undefined) {
      throw scriptExhausted(this.name, callIndex, typeof script === 'function' ? undefined : script.length);
    }
    throwIfAborted(options.signal, what);
    if (response instanceof Error) throw response;
    // Ids name the model, so scripted models with different names never repeat each other's ids.
    return toAssistantMessage(response, messages, `call_${this.name}_${callIndex}`);
  }
}
