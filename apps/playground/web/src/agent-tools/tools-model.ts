import type { Topology } from '../../../src/shared/wire.ts';

/** A tool of an agent, as its `tools` node's metadata lists it. */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  /** Where it comes from: `agent` (an agent used as a tool), `mcp:<server>`, or absent for a function. */
  readonly source?: string;
}

/** The tools of one agent of a graph: its name and where its graph sits. */
export interface AgentTools {
  readonly agent: string;
  readonly tools: readonly ToolInfo[];
}

function isToolInfo(value: unknown): value is ToolInfo {
  const candidate = value as Partial<ToolInfo> | null;
  return typeof candidate?.name === 'string' && typeof candidate.description === 'string';
}

/** The tools a graph's `tools` node lists in its metadata (an agent's own graph), if any. */
function ownTools(topology: Topology): readonly ToolInfo[] | undefined {
  const listed = topology.nodes.find((n) => n.id === 'tools')?.metadata?.tools;
  return Array.isArray(listed) ? listed.filter(isToolInfo) : undefined;
}

function nestedGraphs(topology: Topology): Topology[] {
  return topology.nodes.flatMap((node) => {
    const agents = node.metadata?.agentTools;
    const used = typeof agents === 'object' && agents !== null ? Object.values(agents as object) : [];
    return [...(node.subgraph ? [node.subgraph] : []), ...(used as Topology[])];
  });
}

/**
 * Every agent of a graph with its tools — the agent itself, a team's members, agents used as tools —
 * read from their `tools` nodes' metadata, outermost first (each agent once).
 *
 * @example
 * ```ts
 * agentToolLists(graph.topology); // [{ agent: 'librarian', tools: [{ name: 'fs_read_file', source: 'mcp:filesystem', … }] }]
 * ```
 */
export function agentToolLists(topology: Topology): AgentTools[] {
  const found = new Map<string, readonly ToolInfo[]>();
  const walk = (graph: Topology): void => {
    const tools = ownTools(graph);
    if (tools && !found.has(graph.name)) found.set(graph.name, tools);
    for (const inner of nestedGraphs(graph)) walk(inner);
  };
  walk(topology);
  return [...found].map(([agent, tools]) => ({ agent, tools }));
}

/** What a model call was offered, against the tools of the agent that made it. */
export interface OfferedTools {
  /** Offered names, in the order sent, each marked when it is not one of the agent's own tools. */
  readonly offered: ReadonlyArray<{
    readonly name: string;
    readonly loaded: boolean;
    readonly source?: string;
  }>;
  /** The agent's own tools this call was not offered (hidden by middleware such as tool search). */
  readonly notOffered: readonly string[];
}

/**
 * Splits a model call's offered tools into the agent's own and those loaded for the call (by middleware
 * such as tool search), and lists the agent's tools it was not offered; `undefined` when the graph does
 * not list the agent's tools.
 *
 * @example
 * ```ts
 * offeredTools(['echo', 'search_tools'], agentToolLists(topology), 'librarian');
 * ```
 */
export function offeredTools(
  offered: readonly string[],
  agents: readonly AgentTools[],
  agent: string | undefined,
): OfferedTools | undefined {
  const own = agents.find((a) => a.agent === agent)?.tools;
  if (!own) return undefined;
  const byName = new Map(own.map((t) => [t.name, t]));
  return {
    offered: offered.map((name) => {
      const source = byName.get(name)?.source;
      return { name, loaded: !byName.has(name), ...(source === undefined ? {} : { source }) };
    }),
    notOffered: own.map((t) => t.name).filter((name) => !offered.includes(name)),
  };
}
