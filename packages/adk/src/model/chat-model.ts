import type { AssistantMessage, Message } from '../message/message.js';
import type { MessageChunk } from '../message/message-chunk.js';
import type { RunIdentity } from '../session/run-identity.js';

/**
 * A JSON Schema object, as sent to models for tool parameters and structured output.
 *
 * @example
 * ```ts
 * const schema: JsonSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
 * ```
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * What a model is told about a tool it may call.
 *
 * @example
 * ```ts
 * const spec: ToolSpec = {
 *   name: 'get_weather',
 *   description: 'Current weather of a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * };
 * ```
 */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema with `type: 'object'`. */
  readonly parameters: JsonSchema;
}

/**
 * Whether the model may, must not, or must call a tool, or must call one named tool.
 *
 * @example
 * ```ts
 * const choice: ToolChoice = { name: 'get_weather' };
 * ```
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/**
 * Asks the model for JSON that matches a schema (structured output).
 *
 * @example
 * ```ts
 * const format: ResponseFormat = {
 *   type: 'json_schema',
 *   name: 'answer',
 *   schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
 * };
 * ```
 */
export interface ResponseFormat {
  readonly type: 'json_schema';
  /** A name for the schema (`^[a-zA-Z0-9_-]{1,64}$` for OpenAI). */
  readonly name: string;
  readonly schema: JsonSchema;
  /** Ask the provider to enforce the schema exactly (OpenAI strict mode). */
  readonly strict?: boolean;
}

/**
 * Options of one model call.
 *
 * @example
 * ```ts
 * const weather = tool({
 *   name: 'weather',
 *   description: 'The weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 * const options: ChatModelCallOptions = { tools: [weather.spec], toolChoice: 'auto', temperature: 0 };
 * ```
 */
export interface ChatModelCallOptions {
  readonly tools?: readonly ToolSpec[];
  readonly toolChoice?: ToolChoice;
  readonly responseFormat?: ResponseFormat;
  /** Cancels the request; the call then rejects (or the stream throws) with an `ABORTED` error. */
  readonly signal?: AbortSignal;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly stop?: readonly string[];
  /**
   * Who the call is for (app, user, session, tenant), set when a Runner runs the agent: for adapters
   * that route, meter or tag requests per tenant. Adapters never send it to the provider.
   */
  readonly run?: RunIdentity;
}

/**
 * A chat model: answers a conversation with one assistant message, whole or streamed in chunks
 * that {@link concatMessageChunks} joins into the same message.
 *
 * @throws {ModelError} `MODEL_ERROR` when the provider fails; `WeftError` `ABORTED` (compose's one abort error) on abort.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model: ChatModel = new ScriptedChatModel(['Hello!', 'Hello again!']); // or any adapter
 * const reply = await model.generate([userMessage('Hi')], { temperature: 0 });
 * for await (const chunk of model.stream([userMessage('Hi')])) process.stdout.write(chunk.text ?? '');
 * ```
 */
export interface ChatModel {
  /** A name for logs and events, such as `openai:gpt-4o-mini`. */
  readonly name: string;
  /**
   * The provider the model calls, as the OpenTelemetry GenAI conventions name it (`openai`,
   * `anthropic`, `gcp.gemini`, `aws.bedrock`…); traces report it as `gen_ai.provider.name`.
   */
  readonly provider?: string;
  /** The model id sent to the provider (`gpt-4o-mini`); traces report it as `gen_ai.request.model`. */
  readonly modelId?: string;
  generate(messages: readonly Message[], options?: ChatModelCallOptions): Promise<AssistantMessage>;
  stream(messages: readonly Message[], options?: ChatModelCallOptions): AsyncIterable<MessageChunk>;
}
