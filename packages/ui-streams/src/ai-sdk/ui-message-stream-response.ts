import type { UIMessageChunk } from 'ai';

/**
 * The headers of an AI SDK UI message stream (the `ai` package's `UI_MESSAGE_STREAM_HEADERS`):
 * server-sent events, marked `x-vercel-ai-ui-message-stream: v1`, unbuffered by proxies.
 */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/**
 * Answers with chunks as the UI message stream protocol frames them: one `data: <json>` event per chunk,
 * then `data: [DONE]`. Cancelling the response (the client went away) returns the chunk iterator, which
 * stops the run behind it.
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * const response = uiMessageStreamResponse(toUIMessageChunks(runner.run({ userId: 'u1', sessionId: 's1', message: 'Hi' })));
 * ```
 */
export function uiMessageStreamResponse(
  chunks: AsyncIterable<UIMessageChunk>,
  init: ResponseInit = {},
): Response {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) headers.set(name, value);
  return new Response(body, { ...init, headers });
}
