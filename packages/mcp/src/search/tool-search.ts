import { type AgentMiddleware, type AnyTool, jsonSchemaTool } from '@weft/adk';
import { WeftMcpError } from '../errors/weft-mcp-error.js';
import { Bm25Index } from './bm25-index.js';

/** The name of the tool the model searches with. */
export const SEARCH_TOOLS = 'search_tools';
/** The session state key holding the names of the tools found so far (they stay loaded for the session). */
export const LOADED_TOOLS_KEY = 'weft.toolSearch.loaded';

/**
 * Options of {@link toolSearch}.
 *
 * @example
 * ```ts
 * const github = mcpToolset({ url: 'https://api.githubcopilot.com/mcp/' });
 * const options: ToolSearchOptions = { tools: await github.tools(), alwaysLoaded: ['get_me'], maxResults: 5 };
 * ```
 */
export interface ToolSearchOptions {
  /** Every tool the model may find: a list, or a function giving the current list (e.g. an MCP toolset's). */
  readonly tools: readonly AnyTool[] | (() => readonly AnyTool[] | Promise<readonly AnyTool[]>);
  /** Names of tools sent with every model call without being searched for. */
  readonly alwaysLoaded?: readonly string[];
  /** Tools a search returns at most (default 5). */
  readonly maxResults?: number;
}

/**
 * A tool-search middleware, made by {@link toolSearch}: add it to an agent's `middleware`.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const tools = () => mcpToolset({ url: 'https://mcp.example.com/jira' }).tools();
 * const agent = new ChatModelAgent({ name: 'ops', model, middleware: [toolSearch({ tools })] });
 * ```
 */
export interface ToolSearch extends AgentMiddleware {
  /** The `search_tools` tool the middleware offers. */
  readonly searchTool: AnyTool;
}

/** What a model call can load: the catalogue by name and its search index, rebuilt when the list changes. */
interface Catalogue {
  readonly source: readonly AnyTool[];
  readonly byName: ReadonlyMap<string, AnyTool>;
  readonly index: Bm25Index;
}

function describeTool(tool: AnyTool): string {
  const properties = (tool.spec.parameters as { properties?: Record<string, { description?: unknown }> })
    .properties;
  const parameters = Object.entries(properties ?? {}).map(
    ([name, schema]) => `${name} ${typeof schema?.description === 'string' ? schema.description : ''}`,
  );
  // the name counts twice: a word of the name says more about the tool than one of its description
  return [tool.name, tool.name, tool.description, ...parameters].join(' ');
}

function loadedNames(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Lazy tool discovery for agents with many tools: each model call is sent only the agent's own tools, the
 * `alwaysLoaded` ones and a `search_tools` tool — not the whole catalogue. The model searches by keywords
 * (BM25 over each tool's name, description and parameters; no network); the tools found are listed to it
 * and become callable from its next call on, and stay loaded for the rest of the session (their names are
 * kept in session state under `weft.toolSearch.loaded`).
 *
 * @throws {WeftMcpError} `INVALID_ARGUMENT` for a `maxResults` below 1 or an `alwaysLoaded` name that is
 * not in the catalogue (reported at the first model call when `tools` is a function).
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const headers = { authorization: `Bearer ${process.env.GITHUB_TOKEN}` };
 * const github = mcpToolset({ url: 'https://api.githubcopilot.com/mcp/', headers });
 * const agent = new ChatModelAgent({
 *   name: 'maintainer',
 *   model,
 *   middleware: [toolSearch({ tools: () => github.tools(), alwaysLoaded: ['get_me'], maxResults: 5 })],
 * });
 * ```
 */
export function toolSearch(options: ToolSearchOptions): ToolSearch {
  const maxResults = options.maxResults ?? 5;
  if (!(Number.isInteger(maxResults) && maxResults >= 1)) {
    throw new WeftMcpError(
      'INVALID_ARGUMENT',
      `toolSearch: maxResults must be an integer of at least 1, got ${maxResults}`,
    );
  }
  const always = options.alwaysLoaded ?? [];
  let catalogue: Catalogue | undefined;
  const catalogueOf = (source: readonly AnyTool[]): Catalogue => {
    if (catalogue?.source === source) return catalogue;
    const byName = new Map(source.map((t) => [t.name, t]));
    const missing = always.filter((name) => !byName.has(name));
    if (missing.length > 0) {
      throw new WeftMcpError(
        'INVALID_ARGUMENT',
        `toolSearch: alwaysLoaded names ${missing.map((n) => `"${n}"`).join(', ')}, which are not among its tools`,
      );
    }
    const searchable = source.filter((t) => !always.includes(t.name));
    catalogue = {
      source,
      byName,
      index: new Bm25Index(searchable.map((t) => ({ id: t.name, text: describeTool(t) }))),
    };
    return catalogue;
  };
  const current = async () =>
    catalogueOf(typeof options.tools === 'function' ? await options.tools() : options.tools);
  if (typeof options.tools !== 'function') catalogueOf(options.tools);
  const searchTool = jsonSchemaTool({
    name: SEARCH_TOOLS,
    description:
      'Finds tools by keywords (what you want to do, e.g. "create invoice" or "send slack message"). ' +
      'The tools found become callable from your next step on; call them directly then.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords describing the tool you need.' } },
      required: ['query'],
      additionalProperties: false,
    },
    readOnly: true,
    execute: async (args, context) => {
      const query = typeof args.query === 'string' ? args.query : '';
      const { byName, index } = await current();
      const found = index.search(query, maxResults);
      if (found.length === 0) return `No tool matches "${query}". Try other words, or fewer.`;
      const loaded = loadedNames(context.state.get(LOADED_TOOLS_KEY));
      context.state.set(LOADED_TOOLS_KEY, [...new Set([...loaded, ...found])]);
      const lines = found.map((name) => `- ${name}: ${byName.get(name)?.description ?? ''}`);
      return `Loaded ${found.length} tool(s); you can call them from your next step:\n${lines.join('\n')}`;
    },
  });
  return {
    name: 'tool-search',
    searchTool,
    beforeModel: async (request, ctx) => {
      const { byName } = await current();
      const names = [...always, ...loadedNames(ctx.session.get(LOADED_TOOLS_KEY))];
      const offered = new Map(request.tools.map((t) => [t.name, t]));
      offered.set(SEARCH_TOOLS, searchTool);
      for (const name of names) {
        const found = byName.get(name);
        if (found && !offered.has(name)) offered.set(name, found);
      }
      return { ...request, tools: [...offered.values()] };
    },
  };
}
