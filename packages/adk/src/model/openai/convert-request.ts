import type { Message } from '../../message/message.js';
import type { ChatModelCallOptions, ToolChoice } from '../chat-model.js';
import type { OpenAIRequest } from './openai-types.js';
import { toOpenAIMessages } from './to-openai-messages.js';

/**
 * Settings of the model that shape every request.
 *
 * @example
 * ```ts
 * const settings: RequestSettings = { model: 'gpt-4o-mini', maxTokensParameter: 'max_tokens' };
 * ```
 */
export interface RequestSettings {
  readonly model: string;
  readonly maxTokensParameter: 'max_tokens' | 'max_completion_tokens';
}

function toToolChoice(choice: ToolChoice): NonNullable<OpenAIRequest['tool_choice']> {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * Builds the chat-completions request body (without the streaming flags).
 *
 * @example
 * ```ts
 * const settings: RequestSettings = { model: 'gpt-4o-mini', maxTokensParameter: 'max_completion_tokens' };
 * const body = toOpenAIRequest([userMessage('Hi')], { temperature: 0 }, settings); // { model, messages, temperature: 0 }
 * ```
 */
export function toOpenAIRequest(
  messages: readonly Message[],
  options: ChatModelCallOptions,
  settings: RequestSettings,
): OpenAIRequest {
  const { tools, toolChoice, responseFormat, temperature, maxTokens, stop } = options;
  const hasTools = tools !== undefined && tools.length > 0;
  return {
    model: settings.model,
    messages: toOpenAIMessages(messages, `openai:${settings.model}`),
    ...(hasTools
      ? {
          tools: tools.map((spec) => ({
            type: 'function' as const,
            function: { name: spec.name, description: spec.description, parameters: { ...spec.parameters } },
          })),
        }
      : {}),
    ...(hasTools && toolChoice !== undefined ? { tool_choice: toToolChoice(toolChoice) } : {}),
    ...(responseFormat === undefined
      ? {}
      : {
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: responseFormat.name,
              schema: { ...responseFormat.schema },
              ...(responseFormat.strict === undefined ? {} : { strict: responseFormat.strict }),
            },
          },
        }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { [settings.maxTokensParameter]: maxTokens }),
    ...(stop === undefined || stop.length === 0 ? {} : { stop: [...stop] }),
  };
}
