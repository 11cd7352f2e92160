import type { AnyTool, Message, RunnerResource } from '@weft/adk';
import { WeftMcpError } from '../errors/weft-mcp-error.js';
import { McpConnection, type McpListKind } from './mcp-connection.js';
import { type McpToolInfo, mcpTool } from './mcp-tool.js';
import {
  getPrompt,
  listPrompts,
  listResources,
  type McpPromptInfo,
  type McpResourceContents,
  type McpResourceInfo,
  readResource,
} from './resources-prompts.js';
import { isStdio, type McpServerLocation } from './server-options.js';

/**
 * Options of {@link mcpToolset}: where the server is, plus which of its tools the agent gets and how.
 *
 * @example
 * ```ts
 * const options: McpToolsetOptions = { command: 'mcp-server-filesystem', args: ['/data'], prefix: 'fs_', exclude: ['move_file'] };
 * ```
 */
export type McpToolsetOptions = McpServerLocation & {
  /** Names the server in error messages (default: the command or the URL's host). */
  readonly name?: string;
  /** Only these MCP tools (by the server's names), or those the predicate accepts. */
  readonly include?: readonly string[] | ((name: string) => boolean);
  /** Leaves these MCP tools out (by the server's names). */
  readonly exclude?: readonly string[];
  /** Put before every tool name the model sees (e.g. `fs_`), to keep several servers' tools apart. */
  readonly prefix?: string;
  /** Each call fails after this many milliseconds (the agent's `toolTimeoutMs` applies otherwise). */
  readonly timeoutMs?: number;
  /**
   * The SDK's own request timeout, renewed by every progress notification of the call (default 60 000).
   */
  readonly requestTimeoutMs?: number;
  /**
   * How long connecting may take — a stdio server's start and its answer to `initialize` (default:
   * `requestTimeoutMs`). A server that does not answer in time is stopped and the use fails with
   * `CONNECTION_FAILED`.
   */
  readonly connectTimeoutMs?: number;
  /** Calls a person must approve first: all, or by the MCP tool name and arguments. */
  readonly needsApproval?: boolean | ((tool: string, args: Record<string, unknown>) => boolean);
};

/**
 * An MCP server's tools, resources and prompts for Weft agents, made by {@link mcpToolset}. Close it (or
 * give it to a `Runner` as a resource) when done: a stdio server is then stopped.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const toolset = mcpToolset({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'] });
 * const sessionService = new MemorySessionService();
 * const agent = new ChatModelAgent({ name: 'files', model, tools: await toolset.tools() });
 * const runner = new Runner({ agent, sessionService, resources: [toolset] });
 * ```
 */
export interface McpToolset extends RunnerResource {
  /** The server's label (see `name`). */
  readonly name: string;
  /**
   * The server's tools as agent tools (connecting first). The list is cached until the server sends
   * `notifications/tools/list_changed` or restarts; then the next call lists again.
   */
  tools(): Promise<AnyTool[]>;
  /** Calls `listener` when the server's tools, resources or prompts changed; returns the unsubscribe. */
  onListChanged(listener: (kind: McpListKind) => void): () => void;
  listResources(): Promise<McpResourceInfo[]>;
  readResource(uri: string): Promise<McpResourceContents[]>;
  listPrompts(): Promise<McpPromptInfo[]>;
  /** The prompt's messages, as Weft messages (system-free: MCP prompts hold user and assistant turns). */
  getPrompt(name: string, args?: Readonly<Record<string, string>>): Promise<Message[]>;
  /** Closes the connection (stops a stdio server). Closing twice does nothing. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const invalidName = /[^a-zA-Z0-9_-]/g;
const validPrefix = /^[a-zA-Z0-9_-]{0,32}$/;

function labelOf(options: McpToolsetOptions): string {
  if (options.name) return options.name;
  if (isStdio(options)) return [options.command, ...(options.args ?? [])].join(' ').slice(0, 80);
  return new URL(options.url).host;
}

function checkOptions(options: McpToolsetOptions): void {
  const prefix = options.prefix ?? '';
  if (!validPrefix.test(prefix)) {
    throw new WeftMcpError(
      'INVALID_ARGUMENT',
      `mcpToolset: prefix "${prefix}" must be at most 32 letters, digits, "_" or "-"`,
    );
  }
  for (const key of ['timeoutMs', 'requestTimeoutMs', 'connectTimeoutMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === 'number' && value > 0 && value <= 2 ** 31 - 1)) {
      throw new WeftMcpError(
        'INVALID_ARGUMENT',
        `mcpToolset: ${key} must be a positive number of milliseconds (at most 2147483647), got ${String(value)}`,
      );
    }
  }
  if (isStdio(options)) return;
  if (!('url' in options)) {
    throw new WeftMcpError('INVALID_ARGUMENT', 'mcpToolset: give either `command` (stdio) or `url` (HTTP)');
  }
  if (!URL.canParse(String(options.url))) {
    throw new WeftMcpError('INVALID_ARGUMENT', `mcpToolset: url "${String(options.url)}" is not a URL`);
  }
}

function selected(options: McpToolsetOptions, name: string): boolean {
  const { include, exclude } = options;
  if (exclude?.includes(name)) return false;
  if (include === undefined) return true;
  return typeof include === 'function' ? include(name) : include.includes(name);
}

/** The name the model sees: prefixed, with characters models refuse replaced by `_`, at most 64 long. */
function modelName(prefix: string, name: string): string {
  return `${prefix}${name.replace(invalidName, '_')}`.slice(0, 64);
}

/**
 * Connects Weft agents to an MCP server: `{ command, args, env }` starts it as a child process (stdio),
 * `{ url, headers }` reaches it over Streamable HTTP (the older HTTP+SSE transport as a fallback). Its
 * tools' JSON Schemas go to the model as they are; results become message parts (text, images as data
 * URLs, structured content as JSON); `isError` results and broken connections become tool messages the
 * model reads; calls honour the run's abort signal and `timeoutMs`. A stdio server that crashed is
 * started again on the next call. Nothing connects until `tools()` or another method is first called.
 *
 * @throws {WeftMcpError} `INVALID_ARGUMENT` for a bad prefix or URL; `tools()` and the other methods
 * reject with `CONNECTION_FAILED` (the server can't be started or reached), `REQUEST_FAILED` or `CLOSED`.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const root = '/home/me/notes';
 * const files = mcpToolset({ command: 'mcp-server-filesystem', args: [root], prefix: 'fs_' });
 * const agent = new ChatModelAgent({ name: 'librarian', model, tools: await files.tools() });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService(), resources: [files] });
 * ```
 */
export function mcpToolset(options: McpToolsetOptions): McpToolset {
  checkOptions(options);
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const connection = new McpConnection(options, {
    label: labelOf(options),
    connectTimeoutMs: options.connectTimeoutMs ?? requestTimeoutMs,
  });
  const prefix = options.prefix ?? '';
  const approval = options.needsApproval;
  const needsApproval = typeof approval === 'function' ? approval : approval ? () => true : undefined;
  let listed: Promise<AnyTool[]> | undefined;
  connection.onListChanged((kind) => {
    if (kind === 'tools') listed = undefined;
  });
  const settings = {
    connection,
    timeoutMs: options.timeoutMs,
    requestTimeoutMs,
    needsApproval,
  };
  const list = async (): Promise<AnyTool[]> => {
    const client = await connection.client();
    const infos: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      infos.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const seen = new Map<string, string>();
    return infos
      .filter((info) => selected(options, info.name))
      .map((info) => {
        const name = modelName(prefix, info.name);
        const other = seen.get(name);
        if (other !== undefined) {
          throw new WeftMcpError(
            'INVALID_ARGUMENT',
            `MCP server "${connection.label}": tools "${other}" and "${info.name}" both become "${name}"; exclude one`,
          );
        }
        seen.set(name, info.name);
        return mcpTool(info, { ...settings, name });
      });
  };
  const toolset: McpToolset = {
    name: connection.label,
    tools: () => {
      const pending = (listed ??= list());
      pending.catch(() => {
        if (listed === pending) listed = undefined;
      });
      return pending.then((tools) => [...tools]);
    },
    onListChanged: (listener) => connection.onListChanged(listener),
    listResources: () => listResources(connection),
    readResource: (uri) => readResource(connection, uri),
    listPrompts: () => listPrompts(connection),
    getPrompt: (name, args) => getPrompt(connection, name, args),
    close: () => connection.close(),
    [Symbol.asyncDispose]: () => connection.close(),
  };
  return toolset;
}
