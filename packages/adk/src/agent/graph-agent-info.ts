import type { GraphAgentInfo } from '@weft/compose';
import type { ChatModel } from '../model/chat-model.js';

/**
 * What an agent's compiled graph says about its agent (compose's `compile({ agent })`): its name, its
 * description, and the model id and provider of its model when it has one — read by tracing for the
 * `invoke_agent` span.
 *
 * @example
 * ```ts
 * const info = graphAgentInfo({ name: 'writer', description: 'Writes drafts' }, { provider: 'openai', modelId: 'gpt-4o-mini' });
 * // { name: 'writer', description: 'Writes drafts', model: 'gpt-4o-mini', provider: 'openai' }
 * ```
 */
export function graphAgentInfo(
  agent: { readonly name: string; readonly description?: string | undefined },
  model?: Pick<ChatModel, 'modelId' | 'provider'>,
): GraphAgentInfo {
  return {
    name: agent.name,
    ...(agent.description ? { description: agent.description } : {}),
    ...(model?.modelId === undefined ? {} : { model: model.modelId }),
    ...(model?.provider === undefined ? {} : { provider: model.provider }),
  };
}
