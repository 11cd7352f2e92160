import { z } from 'zod';
import { type AnyTool, tool } from '../tool/tool.js';

/**
 * The name of the built-in tool that ends the enclosing loop agent.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: EXIT_LOOP_TOOL, arguments: {} }] }]);
 * const reply = await model.generate([userMessage('Is the draft good enough?')], { tools: [exitLoopTool().spec] });
 * const broke = reply.toolCalls?.some((call) => call.name === EXIT_LOOP_TOOL); // true
 * ```
 */
export const EXIT_LOOP_TOOL = 'exit_loop';

/**
 * The built-in `exit_loop` tool: give it to an agent inside a `LoopAgent`; when the model calls it, the
 * agent finishes with a loop break (`finish: 'breakLoop'`, an event with `actions.breakLoop`) and the
 * nearest enclosing loop ends after the current agent — outer loops go on.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const writer = new ChatModelAgent({ name: 'writer', model: new ScriptedChatModel(['A first draft.']) });
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'exit_loop', arguments: {} }] }]);
 * const critic = new ChatModelAgent({ name: 'critic', model, tools: [exitLoopTool()] });
 * const loop = new LoopAgent({ name: 'refine', subAgents: [writer, critic], maxIterations: 5 });
 * ```
 */
export function exitLoopTool(): AnyTool {
  return tool({
    name: EXIT_LOOP_TOOL,
    description: 'Call this when the work is good enough and the loop should stop. Nothing else is needed.',
    parameters: z.object({}),
    execute: () => 'Leaving the loop.',
  }) as unknown as AnyTool;
}
