import type { Json, SnapshotInfo, Topology, WireEvent } from '../../src/shared/wire.ts';
import type { StepView } from './run-model.ts';
import type { Selection } from './selection.ts';
import { StateDiff } from './state-diff/state-diff.tsx';
import { CheckpointView } from './threads/checkpoint-view.tsx';
import { EventDetail } from './timeline/event-detail.tsx';

/** The detail pane: a step's state and diff, one event, or a checkpoint with its fork controls. */
export function Inspector(props: {
  readonly selection: Selection;
  readonly steps: readonly StepView[];
  readonly input: Json | undefined;
  readonly events: readonly WireEvent[];
  /** The graph's topology (model calls compare the tools they were offered with the agent's). */
  readonly topology: Topology | undefined;
  readonly history: readonly SnapshotInfo[];
  readonly busy: boolean;
  readonly onFork: (checkpointId: string, values: Record<string, Json> | undefined) => void;
}) {
  const { selection } = props;
  let body: React.ReactNode = (
    <p className="muted">Click a step or an event of the run, or a checkpoint of the history.</p>
  );
  if (selection?.kind === 'step') {
    const index = props.steps.findIndex((s) => s.key === selection.key);
    const step = props.steps[index];
    const before =
      props.steps.slice(0, Math.max(0, index)).findLast((s) => s.values !== undefined)?.values ?? props.input;
    if (step) {
      body = (
        <StateDiff
          title={step.step === undefined ? `${step.tasks.join(', ')}` : `State after step ${step.step}`}
          before={before}
          after={step.values}
        />
      );
    }
  } else if (selection?.kind === 'event') {
    const event = props.events.find((e) => e.seq === selection.seq);
    if (event) body = <EventDetail event={event} topology={props.topology} />;
  } else if (selection?.kind === 'checkpoint') {
    const snapshot = props.history.find((s) => s.checkpointId === selection.id);
    const parent = props.history.find((s) => s.checkpointId === snapshot?.parentId);
    if (snapshot)
      body = <CheckpointView snapshot={snapshot} parent={parent} busy={props.busy} onFork={props.onFork} />;
  }
  return (
    <section className="inspector" data-testid="inspector">
      {body}
    </section>
  );
}
