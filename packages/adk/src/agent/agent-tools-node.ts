import type { NodeContext } from '@weft/compose';
import { z } from 'zod';
import type { Message, ToolMessage } from '../message/message.js';
import { EXIT_LOOP_TOOL } from '../multi/exit-loop-tool.js';
import { handOffRecordOf, TRANSFER_TOOL } from '../multi/transfer.js';
import { type AnyTool, tool } from '../tool/tool.js';
import type { AgentState } from './agent-state.js';
import type { OfferedTools } from './offered-tools.js';
import { hookScope, middlewareContext, type ResolvedAgent } from './resolved-agent.js';
import { type ToolStepResult, toolStep } from './tool-node.js';

/** The name of the built-in exit tool. */
export const EXIT_TOOL = 'exit';

/** The built-in exit tool: the model calls it with its final result to end the agent. */
export function exitTool(): AnyTool {
  return tool({
    name: EXIT_TOOL,
    description: 'Call this when the task is complete, with the final result. Nothing runs after it.',
    parameters: z.object({ final_result: z.string().describe('The final answer or result') }),
    execute: ({ final_result }) => final_result,
  }) as unknown as AnyTool;
}

/**
 * The agent's `tools` node: the generic tool node with the agent's hooks, plus the exits — the exit
 * tool or a return-directly tool that ran successfully ends the agent with that tool's result, a
 * successful `transfer_to_agent` call ends it with a transfer, `exit_loop` with a loop break. The calls
 * of a reply run the tools its model call was offered (`offered`), middleware-added ones included.
 */
export function agentToolsNode(agent: ResolvedAgent, offered: OfferedTools) {
  const base = toolStep({
    tools: agent.tools,
    toolsFor: (reply) => offered.forReply(reply.id),
    author: agent.name,
    concurrency: agent.toolConcurrency,
    ...(agent.toolTimeoutMs === undefined ? {} : { timeoutMs: agent.toolTimeoutMs }),
    onToolError: agent.onToolError,
    middleware: agent.middleware,
    hookContext: (state, session, run, node) =>
      middlewareContext(agent, state as AgentState, session, hookScope(run, node)),
  });
  return async (state: AgentState, ctx: NodeContext): Promise<Partial<AgentState>> => {
    const update = await base(state, ctx);
    return { messages: update.messages, stateDelta: update.stateDelta, ...finishOf(agent, update) };
  };
}

function finishOf(agent: ResolvedAgent, update: ToolStepResult): Partial<AgentState> {
  const ran = (name: string) => update.ran.includes(name);
  const resultOf = (name: string) => update.messages.find((m) => m.name === name && m.status !== 'error');
  if (ran(EXIT_TOOL) && agent.toolsByName.has(EXIT_TOOL)) {
    const result = resultOf(EXIT_TOOL);
    return { finish: 'exit', output: result ? toolResult(result) : undefined };
  }
  if (agent.transfer && ran(TRANSFER_TOOL)) {
    const record = update.messages.map(handOffRecordOf).find((r) => r !== undefined);
    if (record) return { finish: 'transfer', transferTo: record.transferred_to };
  }
  if (ran(EXIT_LOOP_TOOL)) return { finish: 'breakLoop', breakLoop: true };
  const direct = update.ran.find(
    (name) => agent.returnDirectly.has(name) || agent.toolsByName.get(name)?.returnDirectly,
  );
  if (!direct) return {};
  const result = resultOf(direct);
  return { finish: 'returnDirectly', output: result ? toolResult(result) : undefined };
}

function toolResult(message: ToolMessage): unknown {
  if (typeof message.content === 'string') return message.content;
  const json = message.content.find((part) => part.type === 'json');
  if (json && 'value' in json) return json.value;
  return message.content.map((part) => ('text' in part ? part.text : '')).join('');
}

/** True when the last message is an assistant reply asking for tools. */
export function wantsTools(messages: readonly Message[]): boolean {
  const last = messages[messages.length - 1];
  return last?.role === 'assistant' && (last.toolCalls?.length ?? 0) > 0;
}
