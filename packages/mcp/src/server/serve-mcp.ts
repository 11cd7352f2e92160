import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type Agent, MemorySessionService, type SessionService } from '@weft/adk';
import { type Checkpointer, MemoryCheckpointer } from '@weft/compose';
import { WeftMcpError } from '../errors/weft-mcp-error.js';
import { agentTarget } from './agent-target.js';
import { type AnyCompiledGraph, graphTarget } from './graph-target.js';
import { listenHttp, type McpHttpEndpoint, type McpListenOptions } from './http-listener.js';
import { createMcpServer, type ToolApprovalPolicy } from './mcp-server-factory.js';
import { RESUME_TOOL, type ServeTarget } from './serve-target.js';

/**
 * A graph to serve, with the tool's description.
 *
 * @example
 * ```ts
 * const refunds = new StateGraph(z.object({ order: z.string(), refunded: z.boolean().optional() }))
 *   .addNode('refund', () => ({ refunded: true }))
 *   .addEdge(START, 'refund')
 *   .addEdge('refund', END)
 *   .compile({ name: 'refund' });
 * const served: ServedGraph = { graph: refunds, description: 'Refunds an order (asks a person first)' };
 * ```
 */
export interface ServedGraph {
  readonly graph: AnyCompiledGraph;
  readonly description?: string;
}

/**
 * Options of {@link serveMcp}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const assistant = new ChatModelAgent({ name: 'assistant', description: 'Answers questions', model });
 * const refundGraph = new StateGraph(z.object({ order: z.string(), refunded: z.boolean().optional() }))
 *   .addNode('refund', () => ({ refunded: true }))
 *   .addEdge(START, 'refund')
 *   .addEdge('refund', END)
 *   .compile({ name: 'refund' });
 * const options: ServeMcpOptions = { agents: [assistant], graphs: { refund: refundGraph }, name: 'support' };
 * ```
 */
export interface ServeMcpOptions {
  /** Agents served as tools named after them: `{ message, thread_id? }` → the agent's answer. */
  readonly agents?: readonly Agent[];
  /** Compiled graphs served as tools named by their key, taking the graph's input schema. */
  readonly graphs?: Readonly<Record<string, AnyCompiledGraph | ServedGraph>>;
  /** The server's name and version told to clients (default `weft`, `0.1.0`). */
  readonly name?: string;
  readonly version?: string;
  /** Where agent conversations live (default: in memory). */
  readonly sessionService?: SessionService;
  /** Where runs are checkpointed, so interrupted ones can be resumed (default: in memory). */
  readonly checkpointer?: Checkpointer;
  /**
   * Who answers the tool approvals (`needsApproval`) of served agents. Default: nobody through MCP —
   * each approval is refused and the model is told so, since the client calling a tool must not approve
   * that tool's own call. A function is the server's own approver (a policy, a person asked on another
   * channel); `'caller'` lets the MCP client answer them with `weft_resume` (only for trusted clients).
   */
  readonly approveTools?: ToolApprovalPolicy;
}

/**
 * Weft agents and graphs served over MCP, made by {@link serveMcp}.
 *
 * @example
 * ```ts
 * const refundGraph = new StateGraph(z.object({ order: z.string(), refunded: z.boolean().optional() }))
 *   .addNode('refund', () => ({ refunded: true }))
 *   .addEdge(START, 'refund')
 *   .addEdge('refund', END)
 *   .compile({ name: 'refund' });
 * const served = serveMcp({ graphs: { refund: refundGraph } });
 * const endpoint = await served.listen({ port: 3920 });
 * ```
 */
export interface WeftMcpServer {
  /** The names of the served tools (with `weft_resume`). */
  readonly tools: readonly string[];
  /** A new SDK server over the tools, for a transport of your own (one server per connection). */
  createServer(): Server;
  /** Serves over this process's stdin and stdout (the process is then an MCP server for one client). */
  connectStdio(): Promise<{ close(): Promise<void> }>;
  /** Serves over Streamable HTTP, on loopback unless told otherwise. */
  listen(options?: McpListenOptions): Promise<McpHttpEndpoint>;
}

const toolName = /^[a-zA-Z0-9_-]{1,64}$/;

function targetsOf(options: ServeMcpOptions): Map<string, ServeTarget> {
  const stores = {
    sessionService: options.sessionService ?? new MemorySessionService(),
    checkpointer: options.checkpointer ?? new MemoryCheckpointer(),
  };
  const targets = new Map<string, ServeTarget>();
  const add = (target: ServeTarget) => {
    if (!toolName.test(target.name) || target.name === RESUME_TOOL) {
      throw new WeftMcpError(
        'INVALID_ARGUMENT',
        `serveMcp: "${target.name}" cannot be a tool name (1-64 letters, digits, "_" or "-", not "${RESUME_TOOL}")`,
      );
    }
    if (targets.has(target.name)) {
      throw new WeftMcpError('INVALID_ARGUMENT', `serveMcp: two agents or graphs are named "${target.name}"`);
    }
    targets.set(target.name, target);
  };
  for (const agent of options.agents ?? []) add(agentTarget(agent, stores));
  for (const [name, entry] of Object.entries(options.graphs ?? {})) {
    const served: ServedGraph =
      'graph' in entry && !('spec' in entry) ? entry : { graph: entry as AnyCompiledGraph };
    add(
      graphTarget(name, served.graph, {
        checkpointer: stores.checkpointer,
        ...(served.description ? { description: served.description } : {}),
      }),
    );
  }
  if (targets.size === 0)
    throw new WeftMcpError('INVALID_ARGUMENT', 'serveMcp: give at least one agent or graph');
  return targets;
}

/**
 * Serves Weft agents and compiled graphs as MCP tools, over stdio or Streamable HTTP. An agent's tool
 * takes `{ message, thread_id? }` and answers with the agent's reply; a graph's tool takes the graph's
 * input schema and answers with its output (as structured content). A run that pauses — a tool approval,
 * `ctx.interrupt()` — answers `{ status: 'interrupted', thread_id, interrupts }`; the caller answers with
 * the `weft_resume` tool (`{ thread_id, answer }`) and gets the rest of the run. Cancelling the MCP
 * request aborts the run. The HTTP endpoint binds loopback, accepts only loopback `Host` and `Origin`
 * headers (DNS rebinding) and refuses bodies over `maxBodyBytes`.
 *
 * @throws {WeftMcpError} `INVALID_ARGUMENT` for no targets, a name that cannot be a tool name, or two
 * targets with one name.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const assistant = new ChatModelAgent({ name: 'assistant', description: 'Answers questions', model });
 * const refundGraph = new StateGraph(z.object({ order: z.string(), refunded: z.boolean().optional() }))
 *   .addNode('refund', () => ({ refunded: true }))
 *   .addEdge(START, 'refund')
 *   .addEdge('refund', END)
 *   .compile({ name: 'refund' });
 * const served = serveMcp({ agents: [assistant], graphs: { refund: refundGraph } });
 * if (process.argv.includes('--stdio')) await served.connectStdio();
 * else console.log((await served.listen({ port: 3920 })).url);
 * ```
 */
export function serveMcp(options: ServeMcpOptions): WeftMcpServer {
  const targets = targetsOf(options);
  const info = { name: options.name ?? 'weft', version: options.version ?? '0.1.0' };
  const createServer = () => createMcpServer(targets, info, options.approveTools);
  return {
    tools: [...targets.keys(), RESUME_TOOL],
    createServer,
    connectStdio: async () => {
      const server = createServer();
      await server.connect(new StdioServerTransport());
      return { close: () => server.close() };
    },
    listen: (listenOptions) => listenHttp(createServer, listenOptions),
  };
}
