import type { AgentCard } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { describeError, WeftA2aError } from '../errors/weft-a2a-error.js';

/**
 * Headers sent with every request to a remote agent (its card included): fixed, or a function called
 * per request (e.g. a token that expires).
 *
 * @example
 * ```ts
 * const headers: A2aHeaders = async () => ({ authorization: `Bearer ${await tokenSource()}` });
 * declare function tokenSource(): Promise<string>;
 * ```
 */
export type A2aHeaders =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/** Where a remote agent is and how to reach it. */
export interface RemoteLocation {
  /** The agent's URL (its card is at `<url>/.well-known/agent-card.json`), or its card's URL (`….json`). */
  readonly url?: string | undefined;
  /** The card itself, when you have it (no card request is made). */
  readonly card?: AgentCard | undefined;
  readonly headers?: A2aHeaders | undefined;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch | undefined;
}

/** A fetch that adds the location's headers to every request. */
function fetchWith(location: RemoteLocation): typeof fetch {
  const base = location.fetch ?? fetch;
  const { headers } = location;
  if (!headers) return base;
  return async (input, init) => {
    const extra = typeof headers === 'function' ? await headers() : headers;
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(extra)) merged.set(name, value);
    return base(input, { ...init, headers: merged });
  };
}

/** The card URL and path the SDK's resolver takes for a location's `url`. */
export function cardAddress(url: string): { readonly base: string; readonly path: string } {
  if (url.endsWith('.json')) return { base: url, path: '' };
  return { base: url.endsWith('/') ? url : `${url}/`, path: '.well-known/agent-card.json' };
}

/**
 * An SDK client for a remote agent: JSON-RPC (protocol 1.0, or 0.3 for agents whose card says so) and
 * HTTP+JSON, the location's headers on every request.
 *
 * @throws WeftA2aError `CARD_UNAVAILABLE` when the card cannot be fetched or offers no transport the
 *   client speaks; `INVALID_ARGUMENT` without a `url` or `card`.
 */
export async function remoteClient(location: RemoteLocation): Promise<Client> {
  const fetchImpl = fetchWith(location);
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
      transports: [
        new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
        new RestTransportFactory({ fetchImpl, legacyCompat }),
      ],
    }),
  );
  try {
    if (location.card) return await factory.createFromAgentCard(location.card);
    if (!location.url) throw new WeftA2aError('INVALID_ARGUMENT', 'a remote agent needs a `url` or a `card`');
    const { base, path } = cardAddress(location.url);
    return await factory.createFromUrl(base, path);
  } catch (error) {
    if (WeftA2aError.isInstance(error)) throw error;
    const where = location.url ?? location.card?.name ?? 'the remote agent';
    throw new WeftA2aError(
      'CARD_UNAVAILABLE',
      `could not reach the A2A agent at ${where}: ${describeError(error)}`,
      {
        cause: error,
      },
    );
  }
}
