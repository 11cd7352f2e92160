import type { ThreadInfo } from '../../../src/shared/wire.ts';

/** A thread's title; a trailing number (`refund-approval #12`) stays visible when the name is cut. */
function ThreadTitle({ title }: { title: string }) {
  const [, name = title, number] = /^(.*?)(\s#\d+)?$/.exec(title) ?? [];
  return (
    <span className="thread-title" title={title}>
      <span className="thread-name">{name}</span>
      {number && <span className="thread-number">{number}</span>}
    </span>
  );
}

/** The threads of the selected graph: pick one, start a new one, delete one. */
export function ThreadsList(props: {
  readonly threads: readonly ThreadInfo[];
  readonly selectedId: string | undefined;
  readonly onSelect: (id: string) => void;
  readonly onCreate: () => void;
  readonly onDelete: (id: string) => void;
}) {
  return (
    <section className="threads" data-testid="threads">
      <header className="section-header">
        <h2>Threads</h2>
        <button type="button" className="small" data-testid="new-thread" onClick={props.onCreate}>
          + New
        </button>
      </header>
      {props.threads.length === 0 && <p className="muted">No threads yet.</p>}
      <ul>
        {props.threads.map((thread) => (
          <li key={thread.id} className={thread.id === props.selectedId ? 'selected' : ''}>
            <button
              type="button"
              className="thread"
              data-testid="thread"
              data-thread={thread.id}
              onClick={() => props.onSelect(thread.id)}
            >
              <ThreadTitle title={thread.title} />
              <span className={`badge badge-${thread.status}`}>{thread.status}</span>
            </button>
            <button
              type="button"
              className="icon thread-delete"
              data-testid="delete-thread"
              title="Delete thread"
              aria-label={`Delete ${thread.title}`}
              onClick={() => {
                if (window.confirm(`Delete ${thread.title} and its checkpoints?`)) props.onDelete(thread.id);
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
