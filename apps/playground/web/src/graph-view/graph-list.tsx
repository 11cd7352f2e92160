import type { GraphInfo } from '../../../src/shared/wire.ts';

/** The served graphs and agents, with their kind (pregel, dag or agent). */
export function GraphList(props: {
  readonly graphs: readonly GraphInfo[];
  readonly selected: string | undefined;
  readonly onSelect: (id: string) => void;
}) {
  return (
    <section className="graphs" data-testid="graphs">
      <h2>Graphs &amp; agents</h2>
      <ul>
        {props.graphs.map((graph) => (
          <li key={graph.id}>
            <button
              type="button"
              data-testid="graph"
              data-graph={graph.id}
              title={graph.description}
              className={`graph-item${graph.id === props.selected ? ' selected' : ''}`}
              onClick={() => props.onSelect(graph.id)}
            >
              <span className={`kind kind-${graph.kind}`}>
                {graph.kind === 'agent' ? 'agent' : graph.topology.mode}
              </span>
              {graph.id}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
