import { type AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import {
  isLegacyJsonRpcMethod,
  isV1JsonRpcMethod,
  LEGACY_HTTP_EXTENSION_HEADER,
  LEGACY_METHOD_TASKS_RESUBSCRIBE,
} from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import {
  type A2ARequestHandler,
  JsonRpcTransportHandler,
  type ServerCallContext,
  validateVersion,
} from '@a2a-js/sdk/server';

type Envelope = { readonly jsonrpc: string; readonly id: string | number | null };

/** The two dialects one endpoint speaks: protocol 1.0 (`SendMessage`, …) and 0.3 (`message/send`, …). */
export class JsonRpcEndpoint {
  readonly #v1: JsonRpcTransportHandler;
  readonly #legacy: LegacyJsonRpcTransportHandler;

  constructor(handler: A2ARequestHandler) {
    this.#v1 = new JsonRpcTransportHandler(handler);
    this.#legacy = new LegacyJsonRpcTransportHandler(handler);
  }

  /**
   * Answers one JSON-RPC request as the SDK's Express handler does: a 0.3 method name (or one that is
   * no 1.0 name) goes to the 0.3 dialect, the requested protocol version must be one the card declares,
   * and a streaming method answers with Server-Sent Events once its first event is ready (an error before
   * that is a plain JSON-RPC error).
   */
  async respond(body: unknown, context: ServerCallContext, card: AgentCard): Promise<Response> {
    const method = (body as { method?: unknown } | null)?.method;
    const legacy =
      typeof body === 'object' &&
      body !== null &&
      (isLegacyJsonRpcMethod(method) || !isV1JsonRpcMethod(method));
    const mapError = legacy
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
      : JsonRpcTransportHandler.mapToJSONRPCError;
    const id = idOf(body);
    try {
      validateVersion(context.requestedVersion, card, 'JSONRPC');
      const answer = await (legacy ? this.#legacy : this.#v1).handle(
        body as Record<string, unknown>,
        context,
      );
      const headers = extensionHeaders(context, legacy);
      if (!isStream(answer)) return json(answer, 200, headers);
      const iterator = answer[Symbol.asyncIterator]();
      const frame = { headers, mapError, id };
      if (legacy && method === LEGACY_METHOD_TASKS_RESUBSCRIBE) return sse(iterator, undefined, frame);
      let first: IteratorResult<unknown>;
      try {
        first = await iterator.next();
      } catch (error) {
        return json({ jsonrpc: '2.0', id, error: mapError(error) }, 200, headers);
      }
      return sse(iterator, first, frame);
    } catch (error) {
      return json({ jsonrpc: '2.0', id, error: mapError(error) }, 200);
    }
  }
}

function isStream(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return typeof (value as AsyncGenerator | null)?.[Symbol.asyncIterator] === 'function';
}

function idOf(body: unknown): Envelope['id'] {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function extensionHeaders(context: ServerCallContext, legacy: boolean): Record<string, string> {
  const activated = context.activatedExtensions;
  if (!activated || activated.length === 0) return {};
  return { [legacy ? LEGACY_HTTP_EXTENSION_HEADER : 'A2A-Extensions']: activated.join(', ') };
}

function json(value: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * The rest of a stream as Server-Sent Events. A client that goes away cancels the body, which ends the
 * generator (the SDK then detaches its queue; the task itself runs on).
 */
function sse(
  iterator: AsyncIterator<unknown>,
  first: IteratorResult<unknown> | undefined,
  frame: {
    readonly headers: Record<string, string>;
    readonly mapError: (error: unknown) => unknown;
    readonly id: Envelope['id'];
  },
): Response {
  const { headers, mapError, id } = frame;
  const encoder = new TextEncoder();
  let pending = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await iterator.next());
        pending = undefined;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
      } catch (error) {
        controller.enqueue(
          encoder.encode(formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(error) })),
        );
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}
