import { type Checkpointer, type CompiledGraph, END, START, StateGraph } from '@weft/compose';
import { AdkError } from '../errors/adk-error.js';
import type { AnyTool } from '../tool/tool.js';
import type { Agent } from './agent.js';
import type { ChatModelAgentOptions } from './agent-config.js';
import { type AgentState, agentReducers, agentStateSchema } from './agent-state.js';
import { agentToolsNode, EXIT_TOOL, exitTool, wantsTools } from './agent-tools-node.js';
import { type AgentInput, afterAgentNode, initNode, safePointNode } from './lifecycle-nodes.js';
import { modelNode } from './model-node.js';
import type { ResolvedAgent } from './resolved-agent.js';

/** Node names of the ReAct graph. */
export type AgentNode = 'init' | 'model' | 'cancelAfterModel' | 'tools' | 'cancelAfterTools' | 'afterAgent';

/** The compiled graph of an agent. */
export type AgentGraph = CompiledGraph<
  AgentInput & Partial<AgentState>,
  AgentState,
  AgentNode,
  Partial<AgentState>
>;

const agentName = /^[A-Za-z][\w-]{0,63}$/;

/**
 * An agent that reasons with a chat model and acts with tools, compiled to the ReAct graph
 * `init → model → (tool calls?) → cancelAfterModel → tools → cancelAfterTools → model`, with exits to
 * `afterAgent` when the model answers, a return-directly tool or the exit tool ran. The history lives in
 * graph state, so every step is checkpointed, drawable and resumable. Run it with a `Runner`.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name, duplicate tool names, or a bad `maxIterations`.
 * @example
 * ```ts
 * const agent = new ChatModelAgent({
 *   name: 'assistant',
 *   instruction: 'You help {user:name}.',
 *   model: new ScriptedChatModel({ responses: ['Hello!'] }),
 *   tools: [weather],
 * });
 * console.log(agent.graph.toMermaid());
 * ```
 */
export class ChatModelAgent implements Agent {
  readonly name: string;
  readonly description: string;
  /** Agents this one may transfer the conversation to. */
  readonly subAgents: readonly Agent[];
  /** The agent's graph without a checkpointer (draw it, or invoke it directly). */
  readonly graph: AgentGraph;
  readonly #resolved: ResolvedAgent;
  readonly #compiled = new WeakMap<Checkpointer, AgentGraph>();

  constructor(options: ChatModelAgentOptions) {
    this.#resolved = resolve(options);
    this.name = options.name;
    this.description = options.description ?? '';
    this.subAgents = [...(options.subAgents ?? [])];
    this.graph = this.compile();
  }

  /** The agent's options with defaults applied (read-only). */
  get options(): ResolvedAgent {
    return this.#resolved;
  }

  /** Compiles the agent's graph with a checkpointer (cached per checkpointer). */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    const { checkpointer } = options;
    const cached = checkpointer ? this.#compiled.get(checkpointer) : undefined;
    if (cached) return cached;
    const agent = this.#resolved;
    const graph = new StateGraph(agentStateSchema, { reducers: agentReducers })
      .addNode('init', initNode(agent))
      .addNode('model', modelNode(agent))
      .addNode('cancelAfterModel', safePointNode('afterModel'))
      .addNode('tools', agentToolsNode(agent))
      .addNode('cancelAfterTools', safePointNode('afterTools'))
      .addNode('afterAgent', afterAgentNode(agent))
      .addEdge(START, 'init')
      .addEdge('init', 'model')
      .addConditionalEdges('model', (s) => (wantsTools(s.messages) ? 'cancelAfterModel' : 'afterAgent'), [
        'cancelAfterModel',
        'afterAgent',
      ])
      .addEdge('cancelAfterModel', 'tools')
      .addConditionalEdges('tools', (s) => (s.finish ? 'afterAgent' : 'cancelAfterTools'), [
        'afterAgent',
        'cancelAfterTools',
      ])
      .addEdge('cancelAfterTools', 'model')
      .addEdge('afterAgent', END)
      .compile({
        name: agent.name,
        maxSteps: agent.maxIterations * 4 + 8,
        ...(checkpointer ? { checkpointer } : {}),
      });
    const typed = graph as unknown as AgentGraph;
    if (checkpointer) this.#compiled.set(checkpointer, typed);
    return typed;
  }
}

function resolve(options: ChatModelAgentOptions): ResolvedAgent {
  if (!agentName.test(options.name)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `agent name "${options.name}" must start with a letter and hold only letters, digits, "_" or "-" (≤ 64)`,
    );
  }
  const maxIterations = options.maxIterations ?? 20;
  if (!(Number.isInteger(maxIterations) && maxIterations > 0)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `agent "${options.name}": maxIterations must be a positive integer, got ${maxIterations}`,
    );
  }
  const tools: AnyTool[] = [...(options.tools ?? []), ...(options.exitTool ? [exitTool()] : [])];
  const toolsByName = new Map<string, AnyTool>();
  for (const t of tools) {
    if (toolsByName.has(t.name)) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `agent "${options.name}" has two tools named "${t.name}"${t.name === EXIT_TOOL ? ' (exitTool adds one)' : ''}`,
      );
    }
    toolsByName.set(t.name, t);
  }
  for (const name of options.returnDirectly ?? []) {
    if (!toolsByName.has(name))
      throw new AdkError(
        'INVALID_ARGUMENT',
        `agent "${options.name}": returnDirectly names "${name}", which is not one of its tools`,
      );
  }
  return {
    name: options.name,
    description: options.description ?? '',
    instruction: options.instruction,
    model: options.model,
    tools,
    toolsByName,
    maxIterations,
    outputKey: options.outputKey,
    outputSchema: options.outputSchema,
    returnDirectly: new Set(options.returnDirectly ?? []),
    middleware: [...(options.middleware ?? [])],
    modelOptions: { ...(options.modelOptions ?? {}) },
    toolConcurrency: options.toolConcurrency ?? Number.POSITIVE_INFINITY,
    toolTimeoutMs: options.toolTimeoutMs,
    onToolError: options.onToolError ?? 'return',
  };
}
