import { AgentCard } from '@a2a-js/sdk';
import { BEARER_SCHEME } from './agent-card.js';

/**
 * The agent card as a protocol 0.3 client reads it (the `A2A-Version` header absent or `0.3`, spec
 * §3.6.2): the 0.3 fields (`url`, `preferredTransport`, `protocolVersion`, `security` by scheme name,
 * `type`-tagged security schemes) with the 1.0 `supportedInterfaces` embedded, as the SDK's own legacy
 * card handler serves it, so a 1.0 client given this card still finds its interfaces.
 */
export function legacyAgentCard(card: AgentCard): Record<string, unknown> {
  const jsonRpc = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC');
  const url = jsonRpc?.url ?? '';
  const bearer = BEARER_SCHEME in card.securitySchemes;
  const v1 = AgentCard.toJSON(card) as Record<string, unknown>;
  return {
    protocolVersion: '0.3',
    name: card.name,
    description: card.description,
    url,
    preferredTransport: 'JSONRPC',
    ...(card.provider ? { provider: { ...card.provider } } : {}),
    version: card.version,
    ...(card.documentationUrl ? { documentationUrl: card.documentationUrl } : {}),
    ...(card.iconUrl ? { iconUrl: card.iconUrl } : {}),
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
      stateTransitionHistory: false,
    },
    ...(bearer
      ? {
          securitySchemes: { [BEARER_SCHEME]: { type: 'http', scheme: 'bearer' } },
          security: [{ [BEARER_SCHEME]: [] }],
        }
      : {}),
    defaultInputModes: [...card.defaultInputModes],
    defaultOutputModes: [...card.defaultOutputModes],
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: [...skill.tags],
      ...(skill.examples.length > 0 ? { examples: [...skill.examples] } : {}),
      ...(skill.inputModes.length > 0 ? { inputModes: [...skill.inputModes] } : {}),
      ...(skill.outputModes.length > 0 ? { outputModes: [...skill.outputModes] } : {}),
    })),
    supportsAuthenticatedExtendedCard: false,
    supportedInterfaces: v1.supportedInterfaces,
  };
}
