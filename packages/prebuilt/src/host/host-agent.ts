import { AdkError, type Agent, type AgentGraph, type ChatModel, type ChatModelAgent } from '@weft/adk';
import { AgentGraphCache, multiAgentGraph } from '@weft/adk/agent-graph';
import { type Checkpointer, END, START } from '@weft/compose';

import { mergeResultsNode } from './merge-results.js';

/**
 * Options of a {@link HostAgent}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const weather = createReactAgent({ name: 'weather', description: 'Answers weather questions', model, tools: [] });
 * const news = createReactAgent({ name: 'news', description: 'Summarizes the news', model, tools: [] });
 * const host = new ChatModelAgent({
 *   name: 'host',
 *   model,
 *   instruction: HOST_PROMPT,
 *   tools: [weather, news].map((agent) => new AgentTool(agent)),
 * });
 * const options: HostAgentOptions = { host, specialists: [weather, news], summarizerPrompt: SUMMARIZER_PROMPT };
 * ```
 */
export interface HostAgentOptions {
  /** The routing agent; its tools include the specialists as return-directly `AgentTool`s. */
  readonly host: ChatModelAgent;
  /** The specialists the host routes to (each one of its tools, by name). */
  readonly specialists: readonly Agent[];
  /** Merges several results into one answer (default: concatenated under headers). */
  readonly summarizer?: ChatModel;
  /** The summarizer's instruction. */
  readonly summarizerPrompt: string;
}

/**
 * The host pattern as one compiled graph: `host → merge → END`, where `host` is the routing agent's
 * own ReAct graph (its `tools` node runs the specialists, in parallel, nested under it) and `merge`
 * joins several specialist results into one answer. Built by `createHostAgent`.
 *
 * @throws AdkError `INVALID_ARGUMENT` when a specialist is not one of the host's tools.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const weather = createReactAgent({ name: 'weather', description: 'Answers weather questions', model, tools: [] });
 * const news = createReactAgent({ name: 'news', description: 'Summarizes the news', model, tools: [] });
 * const host = new ChatModelAgent({
 *   name: 'host',
 *   model,
 *   instruction: HOST_PROMPT,
 *   tools: [weather, news].map((agent) => new AgentTool(agent)),
 * });
 * const agent = new HostAgent({ host, specialists: [weather, news], summarizerPrompt: SUMMARIZER_PROMPT });
 * // createHostAgent({ host: { model }, specialists: [weather, news] }) builds the same from options
 * ```
 */
export class HostAgent implements Agent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly Agent[];
  readonly #options: HostAgentOptions;
  readonly #graphs = new AgentGraphCache();

  constructor(options: HostAgentOptions) {
    const missing = options.specialists.filter((s) => !options.host.options.toolsByName.has(s.name));
    if (missing.length > 0)
      throw new AdkError(
        'INVALID_ARGUMENT',
        `host "${options.host.name}": the specialists ${missing.map((s) => `"${s.name}"`).join(', ')} are not among its tools`,
      );
    this.name = options.host.name;
    this.description = options.host.description;
    this.subAgents = options.specialists;
    this.#options = options;
  }

  /** The routing agent. */
  get host(): ChatModelAgent {
    return this.#options.host;
  }

  /** Compiles the host graph (cached per checkpointer). */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    return this.#graphs.get(options.checkpointer, (checkpointer) => this.#build(checkpointer));
  }

  #build(checkpointer?: Checkpointer): AgentGraph {
    const { host, specialists, summarizer, summarizerPrompt } = this.#options;
    const merge = mergeResultsNode({
      author: host.name,
      specialists: new Set(specialists.map((s) => s.name)),
      prompt: summarizerPrompt,
      ...(summarizer ? { summarizer } : {}),
    });
    const graph = multiAgentGraph()
      .addNode(host.name, host.compile())
      .addNode('merge', merge)
      .addEdge(START, host.name)
      .addEdge(host.name, 'merge')
      .addEdge('merge', END)
      .compile({ name: this.name, maxSteps: 4, ...(checkpointer ? { checkpointer } : {}) });
    // The builder's input type spells the reducers' update types; the agent graph type spells the state's.
    return graph as unknown as AgentGraph;
  }
}
