import type { AgentEvent, Runner } from '@weft/adk';
import { type GuardOptions, Refusal, readGuardedJson } from '../http/request-guard.js';
import { parseChatRequest } from './chat-request.js';
import { toUIMessageChunks } from './ui-message-chunks.js';
import { uiMessageStreamResponse } from './ui-message-stream-response.js';

/**
 * Options of {@link aiSdkHandler}: who may call (see {@link GuardOptions}) and whose sessions they reach.
 *
 * @example
 * ```ts
 * const options: AiSdkHandlerOptions = { userId: (request) => request.headers.get('x-user') ?? 'anonymous' };
 * ```
 */
export interface AiSdkHandlerOptions extends GuardOptions {
  /**
   * The user a request acts for (its chat id is the session id). Default: `'anonymous'`, so every
   * caller shares one user's sessions: authenticate here (throw a `Refusal(401, …)`) in a real app.
   */
  readonly userId?: (request: Request) => string | Promise<string>;
}

/** What {@link aiSdkHandler} drives: a Runner, or anything that runs and resumes sessions as it does. */
export type ChatRunner = Pick<Runner, 'run' | 'resume'>;

/**
 * A fetch-style route (`(request) => Promise<Response>`) that drives a Weft agent from `useChat`
 * (`@ai-sdk/react`, `DefaultChatTransport`): it reads the chat's POST, runs the last user message as a
 * turn of the session named by the chat id (or resumes the paused turn with the tool approvals the
 * client answered, or `body.resume`), and answers with the run as an AI SDK UI message stream (see
 * `toUIMessageChunks`). It checks `Host` and `Origin` and caps the body; a refused request gets a JSON
 * error with its status. Mount it on any server that speaks fetch (Hono, Next.js route handlers, Bun,
 * Deno, `@hono/node-server`).
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * import { serve } from '@hono/node-server';
 * serve({ fetch: aiSdkHandler(runner), port: 3000 });
 * ```
 */
export function aiSdkHandler(
  runner: ChatRunner,
  options: AiSdkHandlerOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const turn = parseChatRequest(await readGuardedJson(request, options));
      const userId = (await options.userId?.(request)) ?? 'anonymous';
      const session = { userId, sessionId: turn.chatId, signal: request.signal };
      let events: AsyncIterable<AgentEvent>;
      if ('message' in turn) {
        events = runner.run({ ...session, message: turn.message });
        return uiMessageStreamResponse(toUIMessageChunks(events));
      }
      events = runner.resume({ ...session, decisions: turn.decisions });
      return uiMessageStreamResponse(
        toUIMessageChunks(events, {
          knownToolCallIds: turn.knownToolCallIds,
          deniedToolCallIds: turn.deniedToolCallIds,
        }),
      );
    } catch (error) {
      if (error instanceof Refusal) return error.toResponse();
      throw error;
    }
  };
}
