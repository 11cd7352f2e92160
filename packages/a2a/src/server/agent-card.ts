import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentInterface } from '@a2a-js/sdk';
import { type A2aSkill, cardSkill } from './agent-skills.js';

/**
 * What an agent card says about the agent beyond what Weft derives (name, description and skills come
 * from the agent or graph unless given here).
 *
 * @example
 * ```ts
 * const card: A2aCardOptions = {
 *   version: '1.2.0',
 *   provider: { organization: 'Acme', url: 'https://acme.example' },
 *   skills: [{ id: 'refunds', name: 'Refunds', description: 'Refunds an order', tags: ['billing'] }],
 * };
 * ```
 */
export interface A2aCardOptions {
  readonly name?: string;
  readonly description?: string;
  /** The agent's own version (default `1.0.0`). */
  readonly version?: string;
  readonly provider?: { readonly organization: string; readonly url: string };
  readonly documentationUrl?: string;
  readonly iconUrl?: string;
  /** Replaces the skills derived from the agent (its description, tools and sub-agents). */
  readonly skills?: readonly A2aSkill[];
  /** Media types the agent takes (default `text/plain`, `application/json` and files). */
  readonly defaultInputModes?: readonly string[];
  /** Media types the agent answers with (default `text/plain`, `application/json`). */
  readonly defaultOutputModes?: readonly string[];
}

/** What the server itself contributes to the card. */
export interface CardFacts {
  readonly name: string;
  readonly description: string;
  readonly skills: readonly A2aSkill[];
  /** The JSON-RPC endpoint (absolute URL). */
  readonly url: string;
  readonly pushNotifications: boolean;
  /** True when requests must (or may) present a bearer token: declared as the `bearer` scheme. */
  readonly bearer: boolean;
}

/** The security scheme name the card declares for bearer tokens. */
export const BEARER_SCHEME = 'bearer';

/**
 * The interfaces a Weft server speaks: JSON-RPC at protocol 1.0 (what `@a2a-js/sdk` 1.x implements) and
 * the same endpoint at 0.3 (its compatibility layer: `message/send`, `message/stream`, `tasks/…`).
 */
export function interfacesAt(url: string): AgentInterface[] {
  return [
    { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
  ];
}

/** The agent card (protocol 1.0) of a served agent or graph. */
export function buildAgentCard(facts: CardFacts, options: A2aCardOptions = {}): AgentCard {
  return {
    name: options.name ?? facts.name,
    description: options.description ?? facts.description,
    supportedInterfaces: interfacesAt(facts.url),
    provider: options.provider ? { ...options.provider } : undefined,
    version: options.version ?? '1.0.0',
    ...(options.documentationUrl ? { documentationUrl: options.documentationUrl } : {}),
    ...(options.iconUrl ? { iconUrl: options.iconUrl } : {}),
    capabilities: {
      streaming: true,
      pushNotifications: facts.pushNotifications,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: facts.bearer
      ? {
          [BEARER_SCHEME]: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { scheme: 'Bearer', bearerFormat: '', description: 'Authorization: Bearer <token>' },
            },
          },
        }
      : {},
    securityRequirements: facts.bearer ? [{ schemes: { [BEARER_SCHEME]: { list: [] } } }] : [],
    defaultInputModes: [...(options.defaultInputModes ?? ['text/plain', 'application/json', '*/*'])],
    defaultOutputModes: [...(options.defaultOutputModes ?? ['text/plain', 'application/json'])],
    skills: (options.skills ?? facts.skills).map(cardSkill),
    signatures: [],
  };
}
