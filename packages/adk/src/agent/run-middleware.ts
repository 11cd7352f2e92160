import type { AgentRunContext } from './agent-context.js';
import type { AgentMiddleware } from './middleware.js';

/**
 * The middleware that runs around an agent in one run: the Runner's plugins (outermost, in order),
 * then the agent's own.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const logging: AgentMiddleware = { name: 'logging', beforeModel: (request) => console.log(request.messages.length) };
 * const agent = new ChatModelAgent({ name: 'helper', model: new ScriptedChatModel(['Hi!']) });
 * const chain = middlewareOf(agent.options.middleware, { plugins: [logging] }); // [logging, ...the agent's own]
 * ```
 */
export function middlewareOf(
  own: readonly AgentMiddleware[],
  run: Pick<AgentRunContext, 'plugins'>,
): readonly AgentMiddleware[] {
  return run.plugins && run.plugins.length > 0 ? [...run.plugins, ...own] : own;
}
