import { applyNodeChanges, type Edge, MarkerType, type Node, type NodeChange } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Breakpoints, Topology } from '../../../src/shared/wire.ts';
import type { NodeState } from '../run-model.ts';
import { withAgentTools } from './agent-tools.ts';
import type { FlowNodeData } from './flow-node.tsx';
import { type Layout, layoutTopology, type PlacedNode } from './layout.ts';

/** What changes while a graph is shown: statuses, breakpoints, and the toggles' handlers. */
export interface LiveData {
  readonly states: ReadonlyMap<string, NodeState>;
  readonly breakpoints: Breakpoints | undefined;
  readonly onToggleBreakpoint: (node: string, when: 'before' | 'after') => void;
  readonly onToggleExpand: (pathKey: string) => void;
}

/** A layout and the key (topology + expanded subgraphs) it was made for. */
export interface KeyedLayout {
  readonly layout: Layout;
  readonly key: string;
}

const collapsed: ReadonlySet<string> = new Set();

function dataOf(placed: PlacedNode, live: LiveData): FlowNodeData {
  const breakable =
    live.breakpoints && placed.depth === 0 && (placed.kind === 'node' || placed.kind === 'subgraph');
  const { before = [], after = [] } = live.breakpoints ?? {};
  return {
    name: placed.name,
    kind: placed.kind,
    pathKey: placed.id,
    state: live.states.get(placed.id),
    breakpoint: breakable
      ? { before: before.includes(placed.name), after: after.includes(placed.name) }
      : undefined,
    onToggleBreakpoint: live.onToggleBreakpoint,
    onToggleExpand: live.onToggleExpand,
    remote: placed.remote,
  };
}

function toFlowNode(placed: PlacedNode, live: LiveData): Node {
  return {
    id: placed.id,
    type: placed.kind === 'group' ? 'subgraphFrame' : 'weft',
    position: { x: placed.x, y: placed.y },
    ...(placed.parentId ? { parentId: placed.parentId } : {}),
    data: dataOf(placed, live),
    width: placed.width,
    height: placed.height,
    draggable: false,
    selectable: false,
  };
}

/**
 * Lays out a topology (again when a subgraph is expanded or collapsed; a new topology starts collapsed)
 * and returns the layout with the expand toggle.
 */
export function useTopologyLayout(topology: Topology) {
  const topologyKey = JSON.stringify(withAgentTools(topology));
  const [expansion, setExpansion] = useState({ topology: '', paths: collapsed });
  const [laidOut, setLaidOut] = useState<KeyedLayout | undefined>();
  const [error, setError] = useState<string | undefined>();
  const expanded = expansion.topology === topologyKey ? expansion.paths : collapsed;
  const toggleExpand = useCallback(
    (pathKey: string) =>
      setExpansion((old) => {
        const next = new Set(old.topology === topologyKey ? old.paths : collapsed);
        if (next.has(pathKey)) next.delete(pathKey);
        else next.add(pathKey);
        return { topology: topologyKey, paths: next };
      }),
    [topologyKey],
  );
  useEffect(() => {
    let current = true;
    const key = `${topologyKey}:${[...expanded].join(',')}`;
    layoutTopology(JSON.parse(topologyKey) as Topology, expanded).then(
      (layout) => {
        if (!current) return;
        setLaidOut({ layout, key });
        setError(undefined);
      },
      (failure: unknown) => {
        if (current) setError(String(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [topologyKey, expanded]);
  return { laidOut, error, toggleExpand };
}

/**
 * The React Flow nodes and edges of a layout. A new layout replaces the nodes; live changes only
 * update their data, and React Flow's measurements are applied back, so the edges (which need the
 * measured handles) stay drawn.
 */
export function useFlowElements(laidOut: KeyedLayout | undefined, live: LiveData) {
  const [nodes, setNodes] = useState<Node[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `live` is applied by the next effect
  useEffect(
    () => setNodes(laidOut ? laidOut.layout.nodes.map((placed) => toFlowNode(placed, live)) : []),
    [laidOut],
  );
  useEffect(() => {
    const placed = new Map((laidOut?.layout.nodes ?? []).map((p) => [p.id, p]));
    setNodes((old) =>
      old.map((node) => {
        const source = placed.get(node.id);
        return source ? { ...node, data: dataOf(source, live) } : node;
      }),
    );
  }, [live, laidOut]);
  const onNodesChange = useCallback(
    (changes: NodeChange[]) => setNodes((old) => applyNodeChanges(changes, old)),
    [],
  );
  const edges = useMemo(
    (): Edge[] =>
      (laidOut?.layout.edges ?? []).map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        type: 'routed',
        data: { points: edge.points, kind: edge.kind, label: edge.label },
        markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
      })),
    [laidOut],
  );
  return { nodes, edges, onNodesChange };
}
