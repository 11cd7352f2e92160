import { useEffect, useState } from 'react';
import type { Json, SnapshotInfo } from '../../../src/shared/wire.ts';
import { changedKeys } from '../state-diff/diff.ts';
import { StateDiff } from '../state-diff/state-diff.tsx';

type Values = { readonly [key: string]: Json };

function asValues(value: Json): Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

/**
 * A checkpoint of the thread: its state, the diff against its parent, and fork controls — re-run
 * from here, or edit the state and fork (only changed keys are written; the original history stays).
 */
export function CheckpointView(props: {
  readonly snapshot: SnapshotInfo;
  readonly parent: SnapshotInfo | undefined;
  readonly busy: boolean;
  readonly onFork: (checkpointId: string, values: Record<string, Json> | undefined) => void;
}) {
  const { snapshot } = props;
  const [text, setText] = useState(() => JSON.stringify(snapshot.values, null, 2));
  const [error, setError] = useState<string | undefined>();
  // The page refetches the history while and after runs: a fresh copy of the same checkpoint keeps the
  // user's edit; only another checkpoint resets the editor.
  const shown = snapshot.checkpointId;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset per checkpoint id, not per copy
  useEffect(() => {
    setText(JSON.stringify(snapshot.values, null, 2));
    setError(undefined);
  }, [shown]);
  const fork = () => {
    try {
      const edited = asValues(JSON.parse(text) as Json);
      const changed = changedKeys(asValues(snapshot.values), edited);
      props.onFork(snapshot.checkpointId, Object.keys(changed).length > 0 ? changed : undefined);
      setError(undefined);
    } catch (failure) {
      setError(`not valid JSON: ${(failure as Error).message}`);
    }
  };
  return (
    <div className="checkpoint-view" data-testid="checkpoint-view">
      <StateDiff
        title={`Checkpoint at step ${snapshot.step} (${snapshot.source})`}
        before={props.parent?.values}
        after={snapshot.values}
      />
      <h4>Fork from here</h4>
      <p className="muted">
        Edit the state and fork: a new branch starts from this checkpoint (next:{' '}
        {snapshot.next.join(', ') || 'nothing'}); the original history is kept. Keys with reducers receive the
        edited value as an update.
      </p>
      <textarea
        className="json-input"
        data-testid="fork-editor"
        rows={8}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {error && <div className="error-text">{error}</div>}
      <div className="form-actions">
        <button type="button" className="primary" data-testid="fork" disabled={props.busy} onClick={fork}>
          Fork &amp; run
        </button>
        <button
          type="button"
          data-testid="rerun"
          disabled={props.busy}
          onClick={() => props.onFork(snapshot.checkpointId, undefined)}
        >
          Re-run from here
        </button>
      </div>
    </div>
  );
}
