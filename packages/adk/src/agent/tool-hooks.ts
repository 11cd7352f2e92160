import type { ToolCall, ToolMessage } from '../message/message.js';
import { errorToolMessage, valueOutcome } from '../tool/run-tool-call.js';
import type { AgentMiddleware, MiddlewareContext, ToolSkip } from './middleware.js';

/** What the `beforeTool` hooks decided for a call: the call to run, or a result that answers it. */
export interface BeforeToolOutcome {
  /** The call as the hooks left it (its id and tool never change; its arguments may). */
  readonly call: ToolCall;
  /** Set when a hook answered the call: the tool does not run. */
  readonly skip?: ToolSkip;
}

/**
 * Runs the `beforeTool` hooks in order (the first middleware first): each sees the call as the ones
 * before it left it; the first `{ skip }` ends the chain.
 *
 * @example
 * ```ts
 * const call = { id: 'call_1', name: 'search', arguments: '{"q":"weft"}' };
 * const lower: AgentMiddleware = { beforeTool: (c) => ({ ...c, arguments: c.arguments.toLowerCase() }) };
 * const ctx = {} as MiddlewareContext; // the hook context an agent's tool node builds
 * const { call: changed } = await runBeforeTool([lower], call, ctx);
 * ```
 */
export async function runBeforeTool(
  middleware: readonly AgentMiddleware[],
  call: ToolCall,
  ctx: MiddlewareContext,
): Promise<BeforeToolOutcome> {
  let current = call;
  for (const m of middleware) {
    const answer = await m.beforeTool?.(current, ctx);
    if (answer === undefined || answer === null) continue;
    if ('skip' in answer) return { call: current, skip: answer };
    current = { ...current, arguments: answer.arguments };
  }
  return { call: current };
}

/**
 * The tool message of a call a `beforeTool` hook answered (a value that is not JSON becomes an error
 * message the model reads, or is thrown with `onToolError: 'throw'`).
 *
 * @example
 * ```ts
 * const call = { id: 'call_1', name: 'search', arguments: '{}' };
 * skippedMessage(call, { skip: 'cached: 3 results' }, 'return'); // a tool message "cached: 3 results"
 * ```
 */
export function skippedMessage(call: ToolCall, skip: ToolSkip, onToolError: 'return' | 'throw'): ToolMessage {
  const outcome = valueOutcome(call, skip.skip);
  if (outcome.kind === 'result') return outcome.message;
  if (onToolError === 'throw') throw outcome.error;
  return errorToolMessage(call, outcome.error);
}
