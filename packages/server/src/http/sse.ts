// Writes a run's events as Server-Sent Events: `id` (the event's position, for Last-Event-ID), `event`
// and JSON `data`; comments keep idle connections open through proxies; a client that goes away aborts
// `disconnect`.
import type { StreamEvent } from '../runs/event-log.js';

const encoder = new TextEncoder();

/** How an SSE answer is made. */
export interface SseOptions {
  readonly headers: Readonly<Record<string, string>>;
  /** Aborted when the client disconnects. */
  readonly disconnect: AbortController;
  /** A comment line is sent after this many idle milliseconds (default 15,000). */
  readonly keepAliveMs?: number;
}

/** One event as SSE text. */
export function sseFrame(event: StreamEvent): string {
  return `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** An SSE response over `events`; the iterator is closed when the client disconnects. */
export function sseResponse(events: AsyncIterable<StreamEvent>, options: SseOptions): Response {
  const iterator = events[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(
        () => controller.enqueue(encoder.encode(': keep-alive\n\n')),
        options.keepAliveMs ?? 15_000,
      );
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) {
          clearInterval(timer);
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(sseFrame(next.value)));
      } catch (error) {
        clearInterval(timer);
        const message = error instanceof Error ? error.message : String(error);
        controller.enqueue(
          encoder.encode(`event: error\ndata: ${JSON.stringify({ error: 'Error', message })}\n\n`),
        );
        controller.close();
      }
    },
    async cancel() {
      clearInterval(timer);
      options.disconnect.abort();
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...options.headers,
    },
  });
}
