import { agentContextOf } from '../agent/agent-context.js';
import { AdkError } from '../errors/adk-error.js';
import type { SessionKey } from '../session/session.js';
import type { ToolContext } from '../tool/tool-context.js';

/**
 * The session a tool call runs in (app, user and session ids), from the Runner's invocation context.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the tool when it runs outside a Runner (no session).
 * @example
 * ```ts
 * const whoAmI = tool({
 *   name: 'who_am_i',
 *   description: 'The user this session belongs to',
 *   parameters: z.object({}),
 *   execute: (_args, context) => sessionKeyOf(context, 'who_am_i').userId, // throws outside a Runner
 * });
 * ```
 */
export function sessionKeyOf(context: ToolContext, toolName: string): SessionKey {
  const session =
    context.run ?? (context.nodeContext ? agentContextOf(context.nodeContext.config).session : undefined);
  if (!session) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `tool "${toolName}" needs the session it runs in: run its agent with a Runner`,
    );
  }
  return session;
}
