import type { AgentCard } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { Agent, AgentGraph } from '@weft/adk';
import { AgentGraphCache, checkAgentName, multiAgentGraph } from '@weft/adk/agent-graph';
import { type Checkpointer, END, START } from '@weft/compose';
import { WeftA2aError } from '../errors/weft-a2a-error.js';
import { type A2aHeaders, remoteClient } from './remote-client.js';
import { remoteNode } from './remote-node.js';

/**
 * Options of a {@link RemoteA2aAgent}.
 *
 * @example
 * ```ts
 * const options: RemoteA2aAgentOptions<'researcher'> = {
 *   name: 'researcher',
 *   description: 'Finds and summarises sources',
 *   url: 'https://agents.example.com/researcher/',
 *   headers: { authorization: `Bearer ${process.env.RESEARCHER_TOKEN}` },
 * };
 * ```
 */
export interface RemoteA2aAgentOptions<TName extends string = string> {
  /** Its name in Weft (letters, digits, `_` or `-`), unique within a team. */
  readonly name: TName;
  /** What it does, for the agents that hand it work (default: the card's description, else a generic line). */
  readonly description?: string;
  /** The agent's URL (its card is at `<url>/.well-known/agent-card.json`), or the card's own URL (`….json`). */
  readonly url?: string;
  /** Its card, when you have it: no card request is made. */
  readonly card?: AgentCard;
  /** Headers for every request (its card's too): fixed, or a function called per request (a token that expires). */
  readonly headers?: A2aHeaders;
  /** Stream the remote task (default: when its card says it streams). */
  readonly streaming?: boolean;
  /** Session key the reply's text is stored under (as a chat agent's `outputKey`). */
  readonly outputKey?: string;
  /** The `fetch` requests go through (default: the global one). */
  readonly fetch?: typeof fetch;
}

/**
 * An agent that lives behind the Agent2Agent protocol — any framework's (Google ADK, Mastra, another
 * Weft server) — as a Weft agent, Google ADK's `RemoteA2aAgent`. It compiles to a graph of one node, so
 * it joins every multi-agent pattern: a transfer target of a team, an `AgentTool`, a worker of a
 * supervisor. The conversation since its last reply is sent in the remote context that reply came from;
 * the reply streams onto the run as the agent's tokens (statuses as `a2a-status` events); a remote task
 * that needs input pauses the run with an `a2a-input-required` interrupt whose answer continues it;
 * cancelling the run cancels the remote task.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name; WeftA2aError `INVALID_ARGUMENT` without `url` or `card`.
 * @example
 * ```ts
 * import { ChatModelAgent } from '@weft/adk';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new RemoteA2aAgent({
 *   name: 'researcher',
 *   description: 'Finds sources',
 *   url: 'http://127.0.0.1:9100/',
 * });
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'researcher' } }] }]);
 * const desk = new ChatModelAgent({ name: 'desk', model, subAgents: [researcher] });
 * ```
 */
export class RemoteA2aAgent<const TName extends string = string> implements Agent<TName> {
  readonly name: TName;
  /** What it does (given, else its card's description). */
  readonly description: string;
  /** None: the remote agent's own sub-agents are its business. */
  readonly subAgents: readonly Agent[] = [];
  /** Where it is: the URL given, else its card's first interface. */
  readonly url: string | undefined;
  /** Session key its reply's text is stored under, if any. */
  readonly outputKey: string | undefined;
  readonly #options: RemoteA2aAgentOptions<TName>;
  readonly #graphs = new AgentGraphCache();
  #client: Promise<Client> | undefined;

  constructor(options: RemoteA2aAgentOptions<TName>) {
    checkAgentName(options.name);
    if (options.url === undefined && options.card === undefined)
      throw new WeftA2aError(
        'INVALID_ARGUMENT',
        `remote agent "${options.name}" needs a \`url\` or a \`card\``,
      );
    this.#options = options;
    this.name = options.name;
    this.url = options.url ?? options.card?.supportedInterfaces[0]?.url;
    this.outputKey = options.outputKey;
    this.description =
      options.description ??
      (options.card?.description || `The remote A2A agent at ${this.url ?? options.name}.`);
  }

  /**
   * A remote agent whose card is fetched first: its description (unless given) is the card's.
   *
   * @throws WeftA2aError `CARD_UNAVAILABLE` when the card cannot be fetched.
   * @example
   * ```ts
   * const researcher = await RemoteA2aAgent.fromUrl({ name: 'researcher', url: 'http://127.0.0.1:9100/' });
   * console.log(researcher.description); // the card's
   * ```
   */
  static async fromUrl<const TName extends string>(
    options: RemoteA2aAgentOptions<TName>,
  ): Promise<RemoteA2aAgent<TName>> {
    const client = await remoteClient(options);
    const card = await client.getAgentCard();
    const agent = new RemoteA2aAgent({ ...options, card });
    agent.#client = Promise.resolve(client);
    return agent;
  }

  /** Its graph (one node, `remote`), compiled with a checkpointer (cached per checkpointer) or without. */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    return this.#graphs.get(options.checkpointer, (checkpointer) => {
      const graph = multiAgentGraph()
        .addNode('remote', remoteNode(this.#nodeAgent()), {
          kind: 'remote-a2a',
          metadata: { remoteA2a: { url: this.url ?? null, agent: this.name } },
        })
        .addEdge(START, 'remote')
        .addEdge('remote', END);
      return graph.compile({
        name: this.name,
        ...(checkpointer ? { checkpointer } : {}),
      }) as unknown as AgentGraph;
    });
  }

  #nodeAgent() {
    return {
      name: this.name,
      outputKey: this.outputKey,
      client: () => this.#connect(),
      streams: async (client: Client) =>
        this.#options.streaming ?? (await client.getAgentCard()).capabilities?.streaming === true,
    };
  }

  /** The SDK client, made on first use (a failed attempt is retried on the next). */
  #connect(): Promise<Client> {
    this.#client ??= remoteClient(this.#options).catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }
}
