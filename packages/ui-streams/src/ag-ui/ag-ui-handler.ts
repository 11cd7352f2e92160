import type { AGUIEvent } from '@ag-ui/core';
import type { Runner } from '@weft/adk';
import { type GuardOptions, Refusal, readGuardedJson } from '../http/request-guard.js';
import { toAgUiEvents } from './ag-ui-events.js';
import { parseAgUiRequest } from './ag-ui-request.js';

/**
 * Options of {@link agUiHandler}: who may call (see {@link GuardOptions}) and whose sessions they reach.
 *
 * @example
 * ```ts
 * const options: AgUiHandlerOptions = { userId: (request) => request.headers.get('x-user') ?? 'anonymous' };
 * ```
 */
export interface AgUiHandlerOptions extends GuardOptions {
  /**
   * The user a request acts for (its `threadId` is the session id). Default `'anonymous'`: authenticate
   * here (throw a `Refusal(401, …)`) in an app that has users.
   */
  readonly userId?: (request: Request) => string | Promise<string>;
}

/** What {@link agUiHandler} drives: a Runner (its sessions give each run's starting state). */
export type AgUiRunner = Pick<Runner, 'run' | 'resume' | 'appName' | 'sessionService'>;

/**
 * A fetch-style route (`(request) => Promise<Response>`) that AG-UI clients (`HttpAgent` from
 * `@ag-ui/client`, CopilotKit) run a Weft agent through: it reads the posted `RunAgentInput`, runs the
 * last user message as a turn of the session named by `threadId` (or resumes the paused run with the
 * `resume` entries), and answers with the run as AG-UI events over server-sent events (see
 * `toAgUiEvents`). It checks `Host` and `Origin` and caps the body.
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * import { serve } from '@hono/node-server';
 * serve({ fetch: agUiHandler(runner), port: 3000 });
 * ```
 */
export function agUiHandler(
  runner: AgUiRunner,
  options: AgUiHandlerOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const turn = parseAgUiRequest(await readGuardedJson(request, options));
      const userId = (await options.userId?.(request)) ?? 'anonymous';
      const ref = { userId, sessionId: turn.threadId, signal: request.signal };
      const session = await runner.sessionService.get({ appName: runner.appName, ...ref });
      const events =
        'message' in turn
          ? runner.run({ ...ref, message: turn.message })
          : runner.resume({ ...ref, decisions: turn.decisions });
      const run = { threadId: turn.threadId, runId: turn.runId, state: session?.state ?? {} };
      return agUiEventResponse(toAgUiEvents(events, run));
    } catch (error) {
      if (error instanceof Refusal) return error.toResponse();
      throw error;
    }
  };
}

/**
 * Answers with AG-UI events as server-sent events (`data: <json>` each). Cancelling the response (the
 * client went away) returns the event iterator, which stops the run behind it.
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * const response = agUiEventResponse(toAgUiEvents(runner.run({ userId: 'u1', sessionId: 't1', message: 'Hi' }), { threadId: 't1', runId: 'r1' }));
 * ```
 */
export function agUiEventResponse(events: AsyncIterable<AGUIEvent>): Response {
  const iterator = events[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
  });
}
