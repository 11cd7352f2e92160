import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import {
  AGENT_CONTEXT_KEY,
  type AgentRunContext,
  agentContextOf,
  agentPath,
} from '../agent/agent-context.js';
import type { AgentState } from '../agent/agent-state.js';
import { invocationSnapshot } from '../agent/recorded-state.js';
import type { Message } from '../message/message.js';
import { userMessage } from '../message/message-constructors.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { ParsedToolArguments } from '../tool/parse-tool-arguments.js';
import { type Tool, type ToolParameters, tool } from '../tool/tool.js';
import type { ToolContext } from '../tool/tool-context.js';

/**
 * Options of an {@link AgentTool}.
 *
 * @example
 * ```ts
 * const schema = z.object({ topic: z.string(), depth: z.number() });
 * const options: AgentToolOptions<typeof schema> = { inputSchema: schema, history: 'full' };
 * ```
 */
export interface AgentToolOptions<TParameters extends ToolParameters = ToolParameters> {
  /** The tool's arguments (default `{ request: string }`); other arguments reach the agent as JSON. */
  readonly inputSchema?: TParameters;
  /** What the agent sees: only the request (default), or the caller's conversation before it too. */
  readonly history?: 'request' | 'full';
  /** The tool's name (default: the agent's). */
  readonly name?: string;
  /** The tool's description (default: the agent's). */
  readonly description?: string;
}

const requestSchema = z.object({ request: z.string().describe('What to ask the agent, in full') });

/**
 * An agent used as a tool of a chat-model agent. The inner agent's graph runs nested under the caller's
 * `tools` node (its own checkpoint namespace, keyed by the tool call id), so: its events reach the
 * caller's stream tagged with their branch (`host.helper`); its session-state writes return to the
 * caller's session (`temp:` keys stay inside); its exit, transfer and loop actions stay inside; and an
 * interrupt anywhere inside it pauses the caller and resumes inside the inner agent, without running it
 * again from scratch. Its result is the inner agent's output.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({
 *   name: 'researcher',
 *   description: 'Finds facts about a topic',
 *   model: new ScriptedChatModel(['Oslo has 700 000 inhabitants.']),
 * });
 * const model = new ScriptedChatModel([
 *   { toolCalls: [{ name: 'researcher', arguments: { request: 'How big is Oslo?' } }] },
 *   'About 700 000 people live in Oslo.',
 * ]);
 * const host = new ChatModelAgent({ name: 'host', model, tools: [new AgentTool(researcher)] });
 * ```
 */
export class AgentTool<TParameters extends ToolParameters = typeof requestSchema>
  implements Tool<z.output<TParameters>, unknown>
{
  readonly name: string;
  readonly description: string;
  readonly spec: ToolSpec;
  readonly parameters: z.ZodType<z.output<TParameters>>;
  readonly timeoutMs = undefined;
  readonly returnDirectly = false;
  readonly readOnly = false;
  readonly #base: Tool<z.output<TParameters>, unknown>;

  constructor(
    readonly agent: Agent,
    options: AgentToolOptions<TParameters> = {},
  ) {
    const history = options.history ?? 'request';
    const schema = options.inputSchema;
    this.#base = tool({
      name: options.name ?? agent.name,
      description: options.description ?? (agent.description || `Ask agent "${agent.name}"`),
      parameters: (schema ?? requestSchema) as TParameters,
      execute: (args, context) =>
        runAgent(agent, { request: schema ? JSON.stringify(args) : String(args.request), history }, context),
    });
    this.name = this.#base.name;
    this.description = this.#base.description;
    this.spec = this.#base.spec;
    this.parameters = this.#base.parameters;
  }

  execute(args: z.output<TParameters>, context: ToolContext): Promise<unknown> {
    return this.#base.execute(args, context);
  }

  parseArguments(text: string): ParsedToolArguments<z.output<TParameters>> {
    return this.#base.parseArguments(text);
  }

  requiresApproval(): boolean {
    return false;
  }
}

async function runAgent(
  agent: Agent,
  call: { readonly request: string; readonly history: 'request' | 'full' },
  context: ToolContext,
): Promise<unknown> {
  const prior = call.history === 'full' ? before(context.messages ?? []) : [];
  const input = { input: userMessage(call.request), messages: prior };
  const graph = agent.compile();
  const node = context.nodeContext;
  if (!node) {
    const state = await graph.invoke(input, { signal: context.signal });
    return state.output;
  }
  const parent = agentContextOf(node.config);
  const child: AgentRunContext = {
    ...parent,
    sessionState: invocationSnapshot(context.state) ?? parent.sessionState,
    temp: new Map(parent.temp),
    scope: {
      agents: [...agentPath(parent.scope ?? { agents: [], depth: 0 }, node.path), agent.name],
      depth: node.path.length,
    },
  };
  const state: AgentState = await node.runSubgraph(graph, input, {
    key: context.toolCallId,
    config: { [AGENT_CONTEXT_KEY]: child },
    signal: context.signal,
  });
  for (const [key, value] of Object.entries(state.stateDelta)) context.state.set(key, value);
  return state.output;
}

/** The caller's conversation before the assistant message holding the current calls. */
function before(messages: readonly Message[]): Message[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role !== 'assistant') end--;
  return messages.slice(0, Math.max(0, end - 1));
}
