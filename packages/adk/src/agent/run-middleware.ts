import type { AgentRunContext } from './agent-context.js';
import type { AgentMiddleware } from './middleware.js';

/**
 * The middleware that runs around an agent in one run: the Runner's plugins (outermost, in order),
 * then the agent's own.
 *
 * @example
 * ```ts
 * await runBefore(middlewareOf(agent.middleware, run), undefined, (m) => m.beforeAgent?.(hooks));
 * ```
 */
export function middlewareOf(
  own: readonly AgentMiddleware[],
  run: Pick<AgentRunContext, 'plugins'>,
): readonly AgentMiddleware[] {
  return run.plugins && run.plugins.length > 0 ? [...run.plugins, ...own] : own;
}
