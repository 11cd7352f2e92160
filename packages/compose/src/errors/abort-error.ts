import { WeftError } from './weft-error.js';

/**
 * Creates the one abort error of Weft, which a cancelled run (and any cancelled model or tool call of
 * `@weft/adk`) rejects with: a {@link WeftError} with code `ABORTED` and name `AbortError`, whose
 * `cause` is the signal's reason; `what` names what was aborted (default `the run`).
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('wait', (s, ctx) => new Promise<{ count: number }>((resolve) => ctx.signal.addEventListener('abort', () => resolve(s))))
 *   .addEdge(START, 'wait')
 *   .addEdge('wait', END)
 *   .compile();
 * const controller = new AbortController();
 * const run = app.invoke({ count: 0 }, { signal: controller.signal });
 * controller.abort();
 * await run.catch((error: WeftError) => error.code); // 'ABORTED'
 * ```
 */
export function abortError(reason?: unknown, what = 'the run'): WeftError<'ABORTED'> {
  const detail =
    reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : '';
  const error = new WeftError<'ABORTED'>('ABORTED', `${what} was aborted${detail}`, { cause: reason });
  error.name = 'AbortError';
  return error;
}
