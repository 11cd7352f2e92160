import { Handle, type NodeProps, Position } from '@xyflow/react';
import type { NodeState } from '../run-model.ts';

/** What a drawn node shows. */
export interface FlowNodeData extends Record<string, unknown> {
  readonly name: string;
  readonly kind: 'start' | 'end' | 'node' | 'subgraph' | 'group';
  readonly pathKey: string;
  readonly state: NodeState | undefined;
  /** Static breakpoints (top-level nodes of durable graphs only). */
  readonly breakpoint: { readonly before: boolean; readonly after: boolean } | undefined;
  readonly onToggleBreakpoint: ((node: string, when: 'before' | 'after') => void) | undefined;
  readonly onToggleExpand: ((pathKey: string) => void) | undefined;
  /** Set when the node is a remote A2A agent: where it is. */
  readonly remote: string | undefined;
}

function statusClass(data: FlowNodeData): string {
  return data.state ? ` status-${data.state.status}` : '';
}

function BreakpointToggle(props: { data: FlowNodeData; when: 'before' | 'after' }) {
  const { data, when } = props;
  const on = data.breakpoint?.[when] ?? false;
  return (
    <button
      type="button"
      className={`bp bp-${when}${on ? ' bp-on' : ''}`}
      data-testid={`bp-${when}-${data.name}`}
      title={`${on ? 'Remove' : 'Add'} a breakpoint ${when} ${data.name}`}
      onClick={(event) => {
        event.stopPropagation();
        data.onToggleBreakpoint?.(data.name, when);
      }}
    >
      <span className="bp-dot" />
    </button>
  );
}

/** A node of the graph view: name, live status, finished-task count, breakpoint and expand toggles. */
export function FlowNode(props: NodeProps) {
  const data = props.data as FlowNodeData;
  if (data.kind === 'start' || data.kind === 'end') {
    return (
      <div className={`flow-terminal${statusClass(data)}`} data-testid={`node-${data.pathKey}`}>
        <Handle type="target" position={Position.Top} className="handle" />
        {data.kind === 'start' ? 'start' : 'end'}
        <Handle type="source" position={Position.Bottom} className="handle" />
      </div>
    );
  }
  const finished = data.state?.finished ?? 0;
  return (
    <div
      className={`flow-node kind-${data.kind}${statusClass(data)}`}
      data-testid={`node-${data.pathKey}`}
      data-status={data.state?.status ?? 'idle'}
    >
      <Handle type="target" position={Position.Top} className="handle" />
      {data.breakpoint && <BreakpointToggle data={data} when="before" />}
      <span className="flow-node-name">{data.name}</span>
      {data.remote && (
        <span
          className="flow-node-badge"
          data-testid={`remote-${data.pathKey}`}
          title={`remote A2A agent at ${data.remote}`}
        >
          A2A
        </span>
      )}
      {finished > 1 && (
        <span className="flow-node-count" title="tasks finished">
          ×{finished}
        </span>
      )}
      {data.kind === 'subgraph' && (
        <button
          type="button"
          className="expand"
          title="Expand subgraph"
          onClick={() => data.onToggleExpand?.(data.pathKey)}
        >
          +
        </button>
      )}
      {data.breakpoint && <BreakpointToggle data={data} when="after" />}
      <Handle type="source" position={Position.Bottom} className="handle" />
    </div>
  );
}

/** An expanded subgraph: a frame around its nodes, with a collapse button. */
export function FlowGroup(props: NodeProps) {
  const data = props.data as FlowNodeData;
  return (
    <div
      className={`flow-group${statusClass(data)}`}
      data-testid={`group-${data.pathKey}`}
      data-status={data.state?.status ?? 'idle'}
    >
      <Handle type="target" position={Position.Top} className="handle" />
      <div className="flow-group-title">
        <span>{data.name}</span>
        {data.remote && (
          <span className="flow-node-badge" title={`remote A2A agent at ${data.remote}`}>
            A2A
          </span>
        )}
        <button
          type="button"
          className="expand"
          title="Collapse subgraph"
          onClick={() => data.onToggleExpand?.(data.pathKey)}
        >
          −
        </button>
      </div>
      <Handle type="source" position={Position.Bottom} className="handle" />
    </div>
  );
}
