import type { Checkpointer } from '@weft/compose';
import { AdkError } from '../errors/adk-error.js';
import { resolveModel } from '../model/model-registry.js';
import { Team } from '../multi/team.js';
import { type TeamMember, type TransferRules, withTransfer } from '../multi/team-member.js';
import type { TeamPlace } from '../multi/transfer.js';
import type { AnyTool } from '../tool/tool.js';
import type { Agent } from './agent.js';
import type { ChatModelAgentOptions } from './agent-config.js';
import type { AgentGraph, AgentNode } from './agent-graph.js';
import { EXIT_TOOL, exitTool } from './agent-tools-node.js';
import { AGENT_HOOKS, assertHooks, middlewareLabel } from './middleware-hooks.js';
import { buildReactGraph } from './react-graph.js';
import type { ResolvedAgent } from './resolved-agent.js';

const agentName = /^[A-Za-z][\w-]{0,63}$/;

/**
 * An agent that reasons with a chat model and acts with tools, compiled to the ReAct graph
 * `init → model → (tool calls?) → cancelAfterModel → tools → cancelAfterTools → model`, with exits to
 * `afterAgent` when the model answers, a return-directly tool or the exit tool ran. The history lives in
 * graph state, so every step is checkpointed, drawable and resumable. Run it with a `Runner`. With
 * `subAgents` it compiles to the graph of the team it is the root of (see `createTeam`).
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name, duplicate tool names, a bad `maxIterations`, or a
 *   middleware hook nothing calls (a misspelled name, a Runner plugin hook).
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const weather = tool({
 *   name: 'weather',
 *   description: 'The weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 * const agent = new ChatModelAgent({
 *   name: 'assistant',
 *   instruction: 'You help {user:name}.',
 *   model: new ScriptedChatModel(['Hello!']),
 *   tools: [weather],
 * });
 * console.log(agent.graph.toMermaid());
 * ```
 */
export class ChatModelAgent<
  const TName extends string = string,
  TSubAgents extends readonly Agent[] = readonly Agent[],
> implements Agent<TName>, TeamMember
{
  readonly name: TName;
  readonly description: string;
  /** Agents this one may transfer the conversation to. */
  readonly subAgents: TSubAgents;
  /** Transfers allowed besides those to its sub-agents (when it runs in a team). */
  readonly transferRules: TransferRules;
  /** The agent's graph without a checkpointer (draw it, or invoke it directly). */
  readonly graph: AgentGraph;
  readonly #resolved: ResolvedAgent;
  readonly #compiled = new WeakMap<Checkpointer, AgentGraph>();
  #team: Team | undefined;
  #react: AgentGraph<AgentNode> | undefined;

  constructor(options: ChatModelAgentOptions<TName, TSubAgents>) {
    this.#resolved = resolve(options);
    this.name = options.name;
    this.description = options.description ?? '';
    this.subAgents = (options.subAgents ?? []) as TSubAgents;
    this.transferRules = {
      toParent: options.disallowTransferToParent !== true,
      toPeers: options.disallowTransferToPeers !== true,
    };
    this.graph = this.compile();
  }

  /** The agent's options with defaults applied (read-only). */
  get options(): ResolvedAgent {
    return this.#resolved;
  }

  /**
   * Compiles the agent's graph with a checkpointer (cached per checkpointer): its ReAct graph, or with
   * sub-agents the graph of its team.
   */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    if (this.subAgents.length > 0) {
      this.#team ??= new Team(this);
      return this.#team.compile(options);
    }
    const { checkpointer } = options;
    if (!checkpointer) return (this.#react ??= buildReactGraph(this.#resolved));
    const cached = this.#compiled.get(checkpointer);
    if (cached) return cached;
    const graph = buildReactGraph(this.#resolved, checkpointer);
    this.#compiled.set(checkpointer, graph);
    return graph;
  }

  /** Its ReAct graph for a place in a team: with the `transfer_to_agent` tool when it has targets. */
  compileInTeam(place: TeamPlace): AgentGraph {
    if (place.targets.length === 0) return (this.#react ??= buildReactGraph(this.#resolved));
    return buildReactGraph(withTransfer(this.#resolved, place));
  }
}

function resolve(options: ChatModelAgentOptions<string, readonly Agent[]>): ResolvedAgent {
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
  for (const [index, m] of (options.middleware ?? []).entries())
    assertHooks(m, { hooks: AGENT_HOOKS, where: middlewareLabel(m, index, `agent "${options.name}"`) });
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
    model: resolveModel(options.model, options.models, `agent "${options.name}"`),
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
