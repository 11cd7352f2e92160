import { Background, Controls, ReactFlow, useReactFlow } from '@xyflow/react';
import { useEffect, useMemo } from 'react';
import type { Breakpoints, Topology } from '../../../src/shared/wire.ts';
import type { NodeState } from '../run-model.ts';
import { FlowGroup, FlowNode } from './flow-node.tsx';
import { RoutedEdge } from './routed-edge.tsx';
import { useFlowElements, useTopologyLayout } from './use-flow-graph.ts';

const nodeTypes = { weft: FlowNode, subgraphFrame: FlowGroup };
const edgeTypes = { routed: RoutedEdge };
/** A click handler gives nodes pointer events, so their own buttons (breakpoints, expand) work. */
const noop = (): void => undefined;

/** Fits the drawing into view whenever a new layout is shown. */
function FitOnLayout(props: { readonly layoutKey: string | undefined }) {
  const flow = useReactFlow();
  useEffect(() => {
    if (!props.layoutKey) return;
    const frame = window.requestAnimationFrame(() => void flow.fitView({ padding: 0.12, maxZoom: 1.1 }));
    return () => window.cancelAnimationFrame(frame);
  }, [props.layoutKey, flow]);
  return null;
}

/**
 * The graph, laid out by ELK and drawn with React Flow: nodes light up from the run's events
 * (running, done, failed, paused), subgraphs expand in place, and top-level nodes of durable graphs
 * carry breakpoint toggles (pause before / after).
 */
export function GraphView(props: {
  readonly topology: Topology;
  readonly states: ReadonlyMap<string, NodeState>;
  readonly breakpoints: Breakpoints | undefined;
  readonly onToggleBreakpoint: (node: string, when: 'before' | 'after') => void;
}) {
  const { laidOut, error, toggleExpand } = useTopologyLayout(props.topology);
  const { states, breakpoints, onToggleBreakpoint } = props;
  const live = useMemo(
    () => ({ states, breakpoints, onToggleBreakpoint, onToggleExpand: toggleExpand }),
    [states, breakpoints, onToggleBreakpoint, toggleExpand],
  );
  const { nodes, edges, onNodesChange } = useFlowElements(laidOut, live);
  if (error) return <div className="graph-view error-text">Layout failed: {error}</div>;
  return (
    <div className="graph-view" data-testid="graph-view">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        onNodesChange={onNodesChange}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        minZoom={0.2}
        onNodeClick={noop}
      >
        <FitOnLayout layoutKey={laidOut?.key} />
        <Background gap={20} size={1} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
