import type { Message } from '../../message/message.js';
import type { ChatModelCallOptions, ToolChoice } from '../chat-model.js';
import type { AnthropicRequest } from './anthropic-types.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

/**
 * Settings of an Anthropic model that shape every request.
 *
 * @example
 * ```ts
 * const settings: AnthropicRequestSettings = { model: 'claude-sonnet-4-5', name: 'anthropic:claude-sonnet-4-5', maxTokens: 4096, promptCaching: true };
 * ```
 */
export interface AnthropicRequestSettings {
  readonly model: string;
  /** The model's name, for errors. */
  readonly name: string;
  /** `max_tokens` when the call does not set `maxTokens` (Anthropic requires one). */
  readonly maxTokens: number;
  /** Mark the instruction and the tools as a cacheable prefix (`cache_control: ephemeral`). */
  readonly promptCaching: boolean;
  /** Extended thinking budget, in tokens; thinking is off when absent. */
  readonly thinkingBudget?: number;
}

function toToolChoice(choice: ToolChoice): NonNullable<AnthropicRequest['tool_choice']> {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name };
  return choice === 'required' ? { type: 'any' } : { type: choice };
}

const ephemeral = { cache_control: { type: 'ephemeral' as const } };

function toolsOf(
  options: ChatModelCallOptions,
  caching: boolean,
): Pick<AnthropicRequest, 'tools' | 'tool_choice'> {
  const tools = options.tools ?? [];
  if (tools.length === 0) return {};
  return {
    tools: tools.map((spec, index) => ({
      name: spec.name,
      description: spec.description,
      input_schema: { type: 'object' as const, ...spec.parameters },
      ...(caching && index === tools.length - 1 ? ephemeral : {}),
    })),
    ...(options.toolChoice === undefined ? {} : { tool_choice: toToolChoice(options.toolChoice) }),
  };
}

/**
 * Builds the Messages API request body (without the streaming flag): system blocks, messages, tools
 * and tool choice, structured output (`output_config.format`), thinking, and prompt caching — a
 * cache breakpoint on the last system block and on the last tool, so the instruction and the tools
 * are read from the cache on the following calls of an agent loop.
 *
 * @throws {UnsupportedPartError} `UNSUPPORTED_PART` for parts Anthropic cannot take (see `toAnthropicMessages`).
 * @example
 * ```ts
 * const settings: AnthropicRequestSettings = {
 *   model: 'claude-sonnet-4-5',
 *   name: 'anthropic:claude-sonnet-4-5',
 *   maxTokens: 1024,
 *   promptCaching: false,
 * };
 * const body = toAnthropicRequest([userMessage('Hi')], { temperature: 0 }, settings); // max_tokens: 1024
 * ```
 */
export function toAnthropicRequest(
  messages: readonly Message[],
  options: ChatModelCallOptions,
  settings: AnthropicRequestSettings,
): AnthropicRequest {
  const { system, messages: turns } = toAnthropicMessages(messages, settings.name);
  const caching = settings.promptCaching;
  const { responseFormat, temperature, stop, maxTokens } = options;
  return {
    model: settings.model,
    max_tokens: maxTokens ?? settings.maxTokens,
    messages: turns,
    ...(system.length === 0
      ? {}
      : {
          system: system.map((block, index) =>
            caching && index === system.length - 1 ? { ...block, ...ephemeral } : block,
          ),
        }),
    ...toolsOf(options, caching),
    ...(responseFormat === undefined
      ? {}
      : {
          output_config: { format: { type: 'json_schema' as const, schema: { ...responseFormat.schema } } },
        }),
    ...(settings.thinkingBudget === undefined
      ? {}
      : { thinking: { type: 'enabled' as const, budget_tokens: settings.thinkingBudget } }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(stop === undefined || stop.length === 0 ? {} : { stop_sequences: [...stop] }),
  };
}
