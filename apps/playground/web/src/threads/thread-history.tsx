import type { SnapshotInfo } from '../../../src/shared/wire.ts';
import type { Selection } from '../selection.ts';

interface Tree {
  readonly roots: SnapshotInfo[];
  readonly children: ReadonlyMap<string, SnapshotInfo[]>;
  readonly leaves: number;
}

function treeOf(history: readonly SnapshotInfo[]): Tree {
  const ids = new Set(history.map((s) => s.checkpointId));
  const children = new Map<string, SnapshotInfo[]>();
  const roots: SnapshotInfo[] = [];
  const oldestFirst = [...history].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.checkpointId.localeCompare(b.checkpointId),
  );
  for (const snapshot of oldestFirst) {
    if (snapshot.parentId && ids.has(snapshot.parentId))
      children.set(snapshot.parentId, [...(children.get(snapshot.parentId) ?? []), snapshot]);
    else roots.push(snapshot);
  }
  const leaves = history.filter((s) => !children.has(s.checkpointId)).length;
  return { roots, children, leaves };
}

function Row(props: { snapshot: SnapshotInfo; selection: Selection; onSelect: (s: Selection) => void }) {
  const { snapshot } = props;
  const selected = props.selection?.kind === 'checkpoint' && props.selection.id === snapshot.checkpointId;
  return (
    <button
      type="button"
      data-testid="checkpoint"
      data-step={snapshot.step}
      data-source={snapshot.source}
      className={`checkpoint${selected ? ' selected' : ''}`}
      onClick={() => props.onSelect({ kind: 'checkpoint', id: snapshot.checkpointId })}
    >
      <span className="checkpoint-step">step {snapshot.step}</span>
      <span className={`source source-${snapshot.source}`}>{snapshot.source}</span>
      <span className="checkpoint-next" title={snapshot.next.join(', ')}>
        {snapshot.next.length > 0 ? `next: ${snapshot.next.join(', ')}` : 'end'}
      </span>
      {snapshot.interrupts.length > 0 && <span className="badge badge-interrupted">paused</span>}
    </button>
  );
}

function Line(props: {
  start: SnapshotInfo;
  tree: Tree;
  selection: Selection;
  onSelect: (s: Selection) => void;
}) {
  const items: SnapshotInfo[] = [];
  let current: SnapshotInfo | undefined = props.start;
  let forks: SnapshotInfo[] = [];
  while (current) {
    items.push(current);
    const next: SnapshotInfo[] = props.tree.children.get(current.checkpointId) ?? [];
    if (next.length > 1) {
      forks = next;
      break;
    }
    current = next[0];
  }
  return (
    <ol className="history-line">
      {items.map((snapshot) => (
        <li key={snapshot.checkpointId}>
          <Row snapshot={snapshot} selection={props.selection} onSelect={props.onSelect} />
        </li>
      ))}
      {forks.length > 0 && (
        <li className="forks">
          {forks.map((fork, i) => (
            <div key={fork.checkpointId} className="branch" data-testid="branch">
              <div className="branch-label">branch {i + 1}</div>
              <Line start={fork} tree={props.tree} selection={props.selection} onSelect={props.onSelect} />
            </div>
          ))}
        </li>
      )}
    </ol>
  );
}

/** The thread's history: every checkpoint, oldest first, split where the thread was forked. */
export function ThreadHistory(props: {
  readonly history: readonly SnapshotInfo[];
  readonly selection: Selection;
  readonly onSelect: (selection: Selection) => void;
}) {
  const tree = treeOf(props.history);
  return (
    <section className="history" data-testid="history">
      <header className="section-header">
        <h2>History</h2>
        {props.history.length > 0 && (
          <span className="muted" data-testid="branch-count">
            {props.history.length} checkpoints · {tree.leaves} branch{tree.leaves === 1 ? '' : 'es'}
          </span>
        )}
      </header>
      {props.history.length === 0 && <p className="muted">No checkpoints yet.</p>}
      {tree.roots.map((root) => (
        <Line
          key={root.checkpointId}
          start={root}
          tree={tree}
          selection={props.selection}
          onSelect={props.onSelect}
        />
      ))}
    </section>
  );
}
