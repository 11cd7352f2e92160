import type { Json } from '../../../src/shared/wire.ts';
import { diffJson } from './diff.ts';

function short(value: Json | undefined): string {
  const text = JSON.stringify(value);
  return text === undefined ? '' : text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** Shows the state after a step and what changed since the step before. */
export function StateDiff(props: {
  readonly title: string;
  readonly before: Json | undefined;
  readonly after: Json | undefined;
}) {
  const changes = diffJson(props.before, props.after);
  return (
    <section className="state-diff" data-testid="state-diff">
      <h3>{props.title}</h3>
      <h4>Changes ({changes.length})</h4>
      {changes.length === 0 ? (
        <p className="muted">No change.</p>
      ) : (
        <table className="diff-table">
          <tbody>
            {changes.map((change) => (
              <tr key={`${change.kind}:${change.path}`} className={`diff-${change.kind}`}>
                <td className="diff-kind">
                  {change.kind === 'added' ? '+' : change.kind === 'removed' ? '−' : '~'}
                </td>
                <td className="diff-path">{change.path || '(value)'}</td>
                <td className="diff-values">
                  {change.kind !== 'added' && <span className="before">{short(change.before)}</span>}
                  {change.kind === 'changed' && <span className="arrow"> → </span>}
                  {change.kind !== 'removed' && <span className="after">{short(change.after)}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>State after</h4>
      <pre className="json" data-testid="state-after">
        {JSON.stringify(props.after, null, 2)}
      </pre>
    </section>
  );
}
