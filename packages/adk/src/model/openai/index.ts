/**
 * `@weft/adk/openai` — the OpenAI adapter, for users whose models speak OpenAI's wire formats: chat
 * completions at any OpenAI-compatible base URL (OpenAI, Azure, Ollama, vLLM, LM Studio, …) or the
 * Responses API (`api: 'responses'`), `OpenAIEmbeddings` for vector search, and the converters between
 * OpenAI's message shapes and adk's `Message`. The `openai` SDK is imported only here, so the main entry
 * never loads it (docs/adr/024-entry-points-by-audience.md).
 *
 * @example
 * ```ts
 * import { ChatModelAgent, withRetry } from '@weft/adk';
 * import { OpenAIChatModel } from '@weft/adk/openai';
 *
 * const model = withRetry(new OpenAIChatModel({ baseURL: 'http://localhost:11434/v1', model: 'llama3.2' }));
 * const agent = new ChatModelAgent({ name: 'helper', model });
 * ```
 *
 * @packageDocumentation
 */
export { fromOpenAIChunk, fromOpenAICompletion } from './convert-response.js';
export { fromOpenAIAssistantMessage, fromOpenAIMessages } from './from-openai-messages.js';
export { OpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat-model.js';
export { OpenAIEmbeddings, type OpenAIEmbeddingsOptions } from './openai-embeddings.js';
export type {
  OpenAIChunk,
  OpenAICompletion,
  OpenAIMessageParam,
  OpenAIResponseMessage,
} from './openai-types.js';
export { toOpenAIMessages } from './to-openai-messages.js';
