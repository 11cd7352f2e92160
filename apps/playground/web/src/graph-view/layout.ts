import ELK, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { Topology, TopologyEdge } from '../../../src/shared/wire.ts';
import { remoteAgentOf } from './remote-agents.ts';

const elk = new ELK();

/** A node placed by the layout (absolute position for top-level nodes, relative to the parent otherwise). */
export interface PlacedNode {
  /** Path key: `summarize/draft` for a node inside expanded subgraph `summarize`. */
  readonly id: string;
  readonly name: string;
  readonly kind: 'start' | 'end' | 'node' | 'subgraph' | 'group';
  readonly parentId: string | undefined;
  readonly depth: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The URL of the remote A2A agent the node stands for (`RemoteA2aAgent`), if it is one. */
  readonly remote?: string;
}

/** How an edge is drawn: its kind, or `control` for a workflow edge that only triggers. */
export type EdgeStyle = TopologyEdge['kind'] | 'control';

/** An edge with its route, in absolute coordinates. */
export interface PlacedEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly kind: EdgeStyle;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  /** A workflow edge's field mappings, placed by the layout. */
  readonly label?: { readonly text: string; readonly x: number; readonly y: number };
}

/** The style of an edge: a static workflow edge that carries nothing is drawn as a control edge. */
function styleOf(edge: TopologyEdge): EdgeStyle {
  return edge.kind === 'static' && edge.flow === 'control' ? 'control' : edge.kind;
}

/** A workflow edge's label: its mappings (`*` is the whole value). */
function labelOf(edge: TopologyEdge): string | undefined {
  if (!edge.mappings || edge.mappings.length === 0) return undefined;
  return edge.mappings.map((m) => `${m.from || '*'} → ${m.to || '*'}`).join(', ');
}

/** A laid-out graph. */
export interface Layout {
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

const START = '__start__';
const END = '__end__';

function elkGraph(
  topology: Topology,
  prefix: string,
  expanded: ReadonlySet<string>,
  edges: ElkExtendedEdge[],
): ElkNode[] {
  const children = topology.nodes.map((node): ElkNode => {
    const id = `${prefix}${node.id}`;
    // Start and end keep the first and last layer of their graph, so a nested agent reads top-down
    // even when its tools loop back to its model.
    if (node.id === START)
      return {
        id,
        width: 64,
        height: 28,
        layoutOptions: { 'elk.layered.layering.layerConstraint': 'FIRST' },
      };
    if (node.id === END)
      return { id, width: 64, height: 28, layoutOptions: { 'elk.layered.layering.layerConstraint': 'LAST' } };
    if (node.subgraph && expanded.has(id)) {
      return {
        id,
        layoutOptions: { 'elk.padding': '[top=36,left=16,bottom=16,right=16]' },
        children: elkGraph(node.subgraph, `${id}/`, expanded, edges),
      };
    }
    // A remote A2A agent's node also holds its badge.
    const badge = remoteAgentOf(node) ? 40 : 0;
    return { id, width: Math.max(120, node.id.length * 8 + 56 + badge), height: 44 };
  });
  const order = new Map(topology.nodes.map((node, index) => [node.id, index]));
  topology.edges.forEach((edge, index) => {
    // An edge back to an earlier declared node (a loop's return, an agent's tools → model) is given
    // to ELK reversed, so every graph, nested ones included, reads top-down from its start; its route
    // is turned around again after the layout.
    const back = (order.get(edge.target) ?? 0) < (order.get(edge.source) ?? 0);
    const [from, to] = back ? [edge.target, edge.source] : [edge.source, edge.target];
    const text = labelOf(edge);
    edges.push({
      id: `${prefix}${edge.source}->${edge.target}#${styleOf(edge)}#${index}${back ? '#back' : ''}`,
      sources: [`${prefix}${from}`],
      targets: [`${prefix}${to}`],
      ...(text ? { labels: [{ text, width: text.length * 6.5 + 8, height: 16 }] } : {}),
    });
  });
  return children;
}

function kindOf(
  topology: Topology,
  name: string,
  id: string,
  expanded: ReadonlySet<string>,
): PlacedNode['kind'] {
  if (name === START) return 'start';
  if (name === END) return 'end';
  const node = topology.nodes.find((n) => n.id === name);
  if (node?.subgraph) return expanded.has(id) ? 'group' : 'subgraph';
  return 'node';
}

function collect(
  elkNodes: readonly ElkNode[],
  topology: Topology,
  context: {
    parentId: string | undefined;
    depth: number;
    offset: { x: number; y: number };
    expanded: ReadonlySet<string>;
  },
  out: { nodes: PlacedNode[]; origins: Map<string, { x: number; y: number }> },
): void {
  for (const node of elkNodes) {
    const name = node.id.split('/').at(-1) ?? node.id;
    const x = node.x ?? 0;
    const y = node.y ?? 0;
    const source = topology.nodes.find((n) => n.id === name);
    const remote = source ? remoteAgentOf(source) : undefined;
    out.nodes.push({
      id: node.id,
      name,
      kind: kindOf(topology, name, node.id, context.expanded),
      parentId: context.parentId,
      depth: context.depth,
      x,
      y,
      width: node.width ?? 120,
      height: node.height ?? 44,
      ...(remote ? { remote: remote.url ?? remote.agent } : {}),
    });
    const absolute = { x: context.offset.x + x, y: context.offset.y + y };
    out.origins.set(node.id, absolute);
    const inner = topology.nodes.find((n) => n.id === name)?.subgraph;
    if (node.children && inner) {
      collect(
        node.children,
        inner,
        { ...context, parentId: node.id, depth: context.depth + 1, offset: absolute },
        out,
      );
    }
  }
}

/**
 * Lays a topology out top-down with ELK (layered), drawing expanded subgraphs as groups holding their
 * own nodes. Edge routes come back in absolute coordinates.
 */
export async function layoutTopology(topology: Topology, expanded: ReadonlySet<string>): Promise<Layout> {
  const edges: ElkExtendedEdge[] = [];
  const children = elkGraph(topology, '', expanded, edges);
  const result = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '48',
      'elk.spacing.nodeNode': '36',
      'elk.edgeRouting': 'ORTHOGONAL',
      // Back edges are reversed above; what cycles remain (none, or self-loops) break depth-first.
      'elk.layered.cycleBreaking.strategy': 'DEPTH_FIRST',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    },
    children,
    edges,
  });
  const out = { nodes: [] as PlacedNode[], origins: new Map([['root', { x: 0, y: 0 }]]) };
  collect(
    result.children ?? [],
    topology,
    { parentId: undefined, depth: 0, offset: { x: 0, y: 0 }, expanded },
    out,
  );
  const placed = (result.edges ?? []).map((edge): PlacedEdge => {
    const [, kind = 'static', , back] = edge.id.split('#');
    const ends = [edge.sources[0] ?? '', edge.targets[0] ?? ''];
    const [source = '', target = ''] = back ? ends.reverse() : ends;
    const container = (edge as { container?: string }).container ?? 'root';
    const origin = out.origins.get(container) ?? { x: 0, y: 0 };
    const points = (edge.sections ?? []).flatMap((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint]);
    const label = edge.labels?.[0];
    return {
      id: edge.id,
      source,
      target,
      kind: kind as EdgeStyle,
      points: (back ? points.reverse() : points).map((p) => ({ x: p.x + origin.x, y: p.y + origin.y })),
      ...(label?.text
        ? {
            label: {
              text: label.text,
              x: (label.x ?? 0) + (label.width ?? 0) / 2 + origin.x,
              y: (label.y ?? 0) + (label.height ?? 0) / 2 + origin.y,
            },
          }
        : {}),
    };
  });
  return { nodes: out.nodes, edges: placed };
}
