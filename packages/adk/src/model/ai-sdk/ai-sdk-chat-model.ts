import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import { AdkError } from '../../errors/adk-error.js';
import { throwIfAborted } from '../../internal/abort.js';
import type { AssistantMessage, Message } from '../../message/message.js';
import type { MessageChunk } from '../../message/message-chunk.js';
import type { ChatModel, ChatModelCallOptions, ToolChoice } from '../chat-model.js';
import { AiSdkStreamConverter, readStream } from './ai-sdk-stream.js';
import type { AiSdkCallOptions, AiSdkLanguageModel } from './ai-sdk-types.js';
import {
  fromAiSdkContent,
  fromAiSdkFinishReason,
  fromAiSdkUsage,
  metadataOf,
} from './convert-ai-sdk-result.js';
import { toAiSdkError } from './to-ai-sdk-error.js';
import { toAiSdkPrompt } from './to-ai-sdk-prompt.js';

/**
 * Options of {@link fromAiSdk}.
 *
 * @example
 * ```ts
 * const options: FromAiSdkOptions = { name: 'google:gemini-2.5-flash', providerOptions: { google: { thinkingConfig: { includeThoughts: true } } } };
 * ```
 */
export interface FromAiSdkOptions {
  /** The model's name in logs and events (default `<provider>:<modelId>`). */
  readonly name?: string;
  /**
   * The provider as traces name it (`gen_ai.provider.name`). Default: the AI SDK provider's name mapped
   * to the OpenTelemetry GenAI names (`google.generative-ai` → `gcp.gemini`, `amazon-bedrock` →
   * `aws.bedrock`, …), else its first segment.
   */
  readonly provider?: string;
  /** Provider options sent with every call (e.g. to turn reasoning on). */
  readonly providerOptions?: SharedV3ProviderOptions;
  /** Headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>>;
}

function toToolChoice(choice: ToolChoice): NonNullable<AiSdkCallOptions['toolChoice']> {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
}

function callOptions(
  messages: readonly Message[],
  options: ChatModelCallOptions,
  name: string,
  settings: FromAiSdkOptions,
): AiSdkCallOptions {
  const { tools, toolChoice, responseFormat, temperature, maxTokens, stop, signal } = options;
  const hasTools = tools !== undefined && tools.length > 0;
  return {
    prompt: toAiSdkPrompt(messages, name),
    ...(hasTools
      ? {
          tools: tools.map((spec) => ({
            type: 'function' as const,
            name: spec.name,
            description: spec.description,
            inputSchema: { ...spec.parameters },
          })),
        }
      : {}),
    ...(hasTools && toolChoice !== undefined ? { toolChoice: toToolChoice(toolChoice) } : {}),
    ...(responseFormat === undefined
      ? {}
      : {
          responseFormat: {
            type: 'json' as const,
            name: responseFormat.name,
            schema: { ...responseFormat.schema },
          },
        }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { maxOutputTokens: maxTokens }),
    ...(stop === undefined || stop.length === 0 ? {} : { stopSequences: [...stop] }),
    ...(signal === undefined ? {} : { abortSignal: signal }),
    ...(settings.providerOptions === undefined ? {} : { providerOptions: settings.providerOptions }),
    ...(settings.headers === undefined ? {} : { headers: { ...settings.headers } }),
  };
}

/**
 * The ChatModel over an AI SDK model; both specification versions take the same call options for the
 * fields the bridge sends (prompt, tools, tool choice, response format, limits, signal, provider options).
 */
function asCallable(model: AiSdkLanguageModel) {
  return model as {
    doGenerate(
      options: AiSdkCallOptions,
    ): PromiseLike<
      Awaited<ReturnType<Extract<AiSdkLanguageModel, { specificationVersion: 'v3' }>['doGenerate']>>
    >;
    doStream(
      options: AiSdkCallOptions,
    ): PromiseLike<
      Awaited<ReturnType<Extract<AiSdkLanguageModel, { specificationVersion: 'v3' }>['doStream']>>
    >;
  };
}

/**
 * Makes a {@link ChatModel} of any AI SDK provider model (`@ai-sdk/provider` `LanguageModelV2` or
 * `LanguageModelV3`: `@ai-sdk/google`, `@ai-sdk/amazon-bedrock`, `@ai-sdk/mistral`, Ollama providers,
 * …) by calling its `doGenerate`/`doStream`: streaming with tool-input deltas merged into tool calls,
 * reasoning parts with their provider metadata kept and sent back, files, usage with cached and
 * reasoning tokens, finish reasons and abort. Failures are {@link ModelError}s (the AI SDK's status and
 * `isRetryable`), so `withRetry` retries them; the AI SDK's own retries (in `generateText`) are not used.
 * Import it from `@weft/adk/ai-sdk`; nothing of the AI SDK is loaded at run time by the bridge itself.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` when `model` has no `doGenerate`/`doStream`;
 * {@link UnsupportedPartError} `UNSUPPORTED_PART` (per call) for media in system or tool messages.
 * @example
 * ```ts
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible'; // or google(), anthropic(), …
 * const local = createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:11434/v1' });
 * const model = withRetry(fromAiSdk(local.chatModel('llama3.2')));
 * const reply = await model.generate([userMessage('Hi')]);
 * ```
 */
export function fromAiSdk(model: AiSdkLanguageModel, settings: FromAiSdkOptions = {}): ChatModel {
  const candidate = model as Partial<AiSdkLanguageModel> | undefined;
  if (typeof candidate?.doGenerate !== 'function' || typeof candidate.doStream !== 'function') {
    throw new AdkError(
      'INVALID_ARGUMENT',
      'fromAiSdk(model): model is not an AI SDK language model (it needs doGenerate and doStream); pass a provider model such as google("gemini-2.5-flash"), not a provider or a generateText result',
    );
  }
  const name = settings.name ?? `${model.provider.split('.')[0]}:${model.modelId}`;
  const callable = asCallable(model);
  return {
    name,
    provider: settings.provider ?? genAiProviderOf(model.provider),
    modelId: model.modelId,
    async generate(
      messages: readonly Message[],
      options: ChatModelCallOptions = {},
    ): Promise<AssistantMessage> {
      try {
        const result = await callable.doGenerate(callOptions(messages, options, name, settings));
        throwIfAborted(options.signal, `the request to model "${name}"`);
        const responseId = result.response?.id;
        const responseModel = result.response?.modelId;
        const metadata = metadataOf(result).providerMetadata;
        return fromAiSdkContent(result.content, {
          usage: fromAiSdkUsage(result.usage),
          finishReason: fromAiSdkFinishReason(result.finishReason),
          ...(responseModel ? { modelId: responseModel } : {}),
          ...(metadata === undefined && responseId === undefined
            ? {}
            : {
                providerMetadata: {
                  ...metadata,
                  ...(responseId === undefined ? {} : { response: { id: responseId } }),
                },
              }),
        });
      } catch (error) {
        throw toAiSdkError(error, name, options.signal);
      }
    },
    async *stream(
      messages: readonly Message[],
      options: ChatModelCallOptions = {},
    ): AsyncIterable<MessageChunk> {
      try {
        const { stream } = await callable.doStream(callOptions(messages, options, name, settings));
        const converter = new AiSdkStreamConverter(name);
        for await (const part of readStream(stream)) {
          throwIfAborted(options.signal, `the stream of model "${name}"`);
          const chunk = converter.next(part);
          if (chunk !== undefined) yield chunk;
        }
        throwIfAborted(options.signal, `the stream of model "${name}"`);
      } catch (error) {
        throw toAiSdkError(error, name, options.signal);
      }
    },
  };
}

/** The AI SDK provider names whose OpenTelemetry GenAI name differs, by their first segment. */
const genAiProviders: Readonly<Record<string, string>> = {
  google: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  'google-vertex': 'gcp.vertex_ai',
  'amazon-bedrock': 'aws.bedrock',
  bedrock: 'aws.bedrock',
  azure: 'azure.ai.openai',
  'azure-openai': 'azure.ai.openai',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  'ibm-watsonx': 'ibm.watsonx.ai',
};

/** The GenAI conventions' provider name of an AI SDK provider (`openai.chat` → `openai`). */
function genAiProviderOf(provider: string): string {
  const first = provider.split('.')[0] ?? provider;
  return genAiProviders[first] ?? first;
}
