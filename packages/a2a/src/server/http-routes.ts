import {
  A2A_VERSION_HEADER,
  type AgentCard,
  AgentCard as AgentCardJson,
  Extensions,
  HTTP_EXTENSION_HEADER,
} from '@a2a-js/sdk';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { type A2ARequestHandler, ServerCallContext, type User } from '@a2a-js/sdk/server';
import type { JsonRpcEndpoint } from './json-rpc-endpoint.js';
import { legacyAgentCard } from './legacy-card.js';
import { readBody } from './request-guard.js';

/**
 * The agent card, in the shape the request's protocol version reads: 0.3's for a request without
 * `A2A-Version` (spec §3.6.2) or with a 0.x one, 1.0's otherwise.
 */
export function cardResponse(request: Request, card: AgentCard): Response {
  const legacy = isLegacyVersion(request.headers.get(A2A_VERSION_HEADER));
  return Response.json(legacy ? legacyAgentCard(card) : AgentCardJson.toJSON(card), {
    headers: { vary: A2A_VERSION_HEADER, 'cache-control': 'no-cache' },
  });
}

/** A JSON-RPC request: its body read (capped) and parsed, its call context built, then answered. */
export async function rpcResponse(
  request: Request,
  call: {
    readonly endpoint: JsonRpcEndpoint;
    readonly handler: A2ARequestHandler;
    readonly user: User | undefined;
    readonly limit: number;
  },
): Promise<Response> {
  const text = await readBody(request, call.limit);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const error = { code: A2A_ERROR_CODE.PARSE_ERROR, message: 'Invalid JSON payload.' };
    return Response.json({ jsonrpc: '2.0', id: null, error }, { status: 400 });
  }
  const version = request.headers.get(A2A_VERSION_HEADER);
  const extensions = request.headers.get(HTTP_EXTENSION_HEADER) ?? request.headers.get('X-A2A-Extensions');
  const context = new ServerCallContext({
    ...(call.user ? { user: call.user } : {}),
    ...(version ? { requestedVersion: version } : {}),
    requestedExtensions: Extensions.parseServiceParameter(extensions ?? undefined),
  });
  return call.endpoint.respond(body, context, await call.handler.getAgentCard());
}

function isLegacyVersion(version: string | null): boolean {
  if (version === null || version.trim() === '') return true;
  const [major, minor] = version.split('.').map(Number);
  return major === 0 && (minor ?? 0) >= 3;
}
