import { AdkError } from '../errors/adk-error.js';
import type { ChatModel } from './chat-model.js';

/**
 * Makes a model of one provider from a model id (the part after `provider:`).
 *
 * @example
 * ```ts
 * const openai: ModelFactory = (id) => new OpenAIChatModel({ model: id });
 * ```
 */
export type ModelFactory = (modelId: string) => ChatModel;

/**
 * Resolves `provider:model-id` strings to models, so an agent's model is configuration. Made by
 * {@link modelRegistry} from the factories the user passes in; there is no global registry.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const registry: ModelRegistry = modelRegistry({
 *   scripted: (modelId) => new ScriptedChatModel(['Hello!'], { name: `scripted:${modelId}` }),
 * });
 * const model = registry.resolve('scripted:demo'); // a ChatModel named 'scripted:demo'
 * ```
 */
export interface ModelRegistry {
  /** The provider prefixes it knows, sorted. */
  readonly providers: readonly string[];
  /**
   * The model for `provider:model-id`. The same string gives the same model instance.
   *
   * @throws {AdkError} `INVALID_ARGUMENT` for a string without `provider:`, an unknown provider
   * (listing the known ones) or an empty model id.
   */
  resolve(spec: string): ChatModel;
}

const providerName = /^[a-z0-9][a-z0-9._-]*$/i;

function parseSpec(spec: string, providers: readonly string[]): { provider: string; modelId: string } {
  const colon = spec.indexOf(':');
  const known = providers.length === 0 ? 'none' : providers.join(', ');
  if (colon <= 0 || colon === spec.length - 1) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `model "${spec}" is not of the form provider:model-id (e.g. "openai:gpt-4o-mini"); known providers: ${known}`,
    );
  }
  return { provider: spec.slice(0, colon), modelId: spec.slice(colon + 1) };
}

/**
 * Builds a {@link ModelRegistry} from one factory per provider prefix. Resolved models are cached per
 * string, so agents naming the same model share one client.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` when a provider prefix is empty or has characters other than
 * letters, digits, `.`, `_` and `-`.
 * @example
 * ```ts
 * const models = modelRegistry({
 *   openai: (id) => new OpenAIChatModel({ model: id }),
 *   anthropic: (id) => new AnthropicChatModel({ model: id }),
 * });
 * const agent = new ChatModelAgent({ name: 'helper', model: process.env.HELPER_MODEL ?? 'openai:gpt-4o-mini', models });
 * ```
 */
export function modelRegistry(factories: Readonly<Record<string, ModelFactory>>): ModelRegistry {
  for (const name of Object.keys(factories)) {
    if (!providerName.test(name)) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `modelRegistry: provider "${name}" must be letters, digits, ".", "_" or "-" (it is the part before ":")`,
      );
    }
  }
  const providers = Object.keys(factories).sort();
  const cache = new Map<string, ChatModel>();
  return {
    providers,
    resolve(spec) {
      const cached = cache.get(spec);
      if (cached !== undefined) return cached;
      const { provider, modelId } = parseSpec(spec, providers);
      const factory = Object.hasOwn(factories, provider) ? factories[provider] : undefined;
      if (factory === undefined) {
        throw new AdkError(
          'INVALID_ARGUMENT',
          `model "${spec}": no provider "${provider}" in the model registry; known providers: ${providers.join(', ') || 'none'}`,
        );
      }
      const model = factory(modelId);
      cache.set(spec, model);
      return model;
    },
  };
}

/**
 * A model given as an instance or as a `provider:model-id` string, resolved with a registry.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` for a string when no registry is given (naming `what`), or
 * whatever {@link ModelRegistry.resolve} throws.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const models = modelRegistry({ scripted: () => new ScriptedChatModel(['Hello!']) });
 * const model = resolveModel('scripted:demo', models, 'agent "helper"');
 * ```
 */
export function resolveModel(
  model: ChatModel | string,
  registry: ModelRegistry | undefined,
  what: string,
): ChatModel {
  if (typeof model !== 'string') return model;
  if (registry === undefined) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `${what} names its model as "${model}" but has no model registry; pass { models: modelRegistry({ … }) }`,
    );
  }
  return registry.resolve(model);
}
