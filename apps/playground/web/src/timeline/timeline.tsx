import { useState } from 'react';
import type { RunInfo, WireEvent } from '../../../src/shared/wire.ts';
import { formatUsage } from '../conversation/conversation-model.ts';
import { isStopEvent, type StepView } from '../run-model.ts';
import type { Selection } from '../selection.ts';
import { runUsage } from '../trace/trace-model.ts';
import { TraceView } from '../trace/trace-view.tsx';
import { costLabel, costOfCalls } from '../usage/cost-model.ts';
import { usePrices } from '../usage/prices-context.ts';

function eventLabel(event: WireEvent): string {
  const where = event.path.length > 0 ? event.path.join(' › ') : '';
  if (isStopEvent(event)) return 'stopped';
  switch (event.type) {
    case 'model-call':
      return `model call · ${event.durationMs} ms`;
    case 'agent':
      return `${event.event.author} event`;
    case 'tool-start':
    case 'tool-end':
      return `${event.type} ${event.tool}`;
    case 'interrupt':
      return `interrupt at ${where}`;
    case 'node-error':
      return `${where} failed`;
    default:
      return `${event.type}${where ? ` ${where}` : ''}`;
  }
}

const shown = new Set<WireEvent['type']>([
  'node-start',
  'node-end',
  'node-error',
  'node-retry',
  'interrupt',
  'model-call',
  'custom',
  'agent',
  'run-error',
]);

function StepEvents(props: {
  events: readonly WireEvent[];
  selection: Selection;
  onSelect: (s: Selection) => void;
}) {
  const tokens = props.events.filter((e) => e.type === 'chunk').length;
  return (
    <ul className="events">
      {props.events
        .filter((e) => shown.has(e.type))
        .map((event) => (
          <li key={event.seq}>
            <button
              type="button"
              data-testid={`event-${isStopEvent(event) ? 'run-stopped' : event.type}`}
              data-seq={event.seq}
              className={`event event-${isStopEvent(event) ? 'run-stopped' : event.type}${props.selection?.kind === 'event' && props.selection.seq === event.seq ? ' selected' : ''}`}
              onClick={() => props.onSelect({ kind: 'event', seq: event.seq })}
            >
              {eventLabel(event)}
            </button>
          </li>
        ))}
      {tokens > 0 && <li className="muted tokens-note">{tokens} streamed chunks</li>}
    </ul>
  );
}

type View = 'steps' | 'trace';

function ViewTabs(props: { readonly view: View; readonly onView: (view: View) => void }) {
  return (
    <span className="view-tabs">
      {(['steps', 'trace'] as const).map((view) => (
        <button
          key={view}
          type="button"
          className={`small${props.view === view ? ' active' : ''}`}
          data-testid={`view-${view}`}
          onClick={() => props.onView(view)}
        >
          {view === 'steps' ? 'Steps' : 'Trace'}
        </button>
      ))}
    </span>
  );
}

function TimelineHeader(props: {
  readonly run: RunInfo | undefined;
  readonly runs: readonly RunInfo[];
  readonly events: readonly WireEvent[];
  readonly stepCount: number;
  readonly view: View;
  readonly onView: (view: View) => void;
  readonly onSelectRun: (runId: string) => void;
}) {
  const { run } = props;
  const usage = runUsage(props.events);
  const cost = costOfCalls(props.events, usePrices());
  return (
    <header className="timeline-header">
      <h2>Run</h2>
      <ViewTabs view={props.view} onView={props.onView} />
      {props.runs.length > 0 && (
        <select
          aria-label="Run"
          data-testid="run-select"
          value={run?.id ?? ''}
          onChange={(e) => props.onSelectRun(e.target.value)}
        >
          {props.runs.map((r, i) => (
            <option key={r.id} value={r.id}>
              #{i + 1} {r.kind} · {r.status}
            </option>
          ))}
        </select>
      )}
      {run && (
        <span className={`badge badge-${run.status}`} data-testid="run-status">
          {run.status}
        </span>
      )}
      <span className="step-count" data-testid="step-count">
        {props.stepCount} step{props.stepCount === 1 ? '' : 's'}
      </span>
      {usage && (
        <span className="muted" data-testid="run-usage" title={formatUsage(usage.usage)}>
          {usage.calls} model call{usage.calls === 1 ? '' : 's'} ·{' '}
          {usage.usage.totalTokens.toLocaleString('en-US')} tokens
          {cost && <span data-testid="run-cost"> · {costLabel(cost)}</span>}
        </span>
      )}
      {run?.status === 'cancelled' && (
        <span className="muted" data-testid="run-stopped">
          stopped: it can continue from its last checkpoint
        </span>
      )}
      {run?.error && run.status !== 'cancelled' && (
        <span className="error-text" title={run.error.message}>
          {run.error.message}
        </span>
      )}
    </header>
  );
}

/** The run's timeline: its steps (click one for the state after it and the diff) and their events. */
export function Timeline(props: {
  readonly run: RunInfo | undefined;
  readonly runs: readonly RunInfo[];
  readonly events: readonly WireEvent[];
  readonly steps: readonly StepView[];
  readonly stepCount: number;
  readonly selection: Selection;
  readonly onSelect: (selection: Selection) => void;
  readonly onSelectRun: (runId: string) => void;
}) {
  const [view, setView] = useState<View>('steps');
  const isSelected = (key: string) => props.selection?.kind === 'step' && props.selection.key === key;
  return (
    <section className="timeline" data-testid="timeline">
      <TimelineHeader
        run={props.run}
        runs={props.runs}
        events={props.events}
        stepCount={props.stepCount}
        view={view}
        onView={setView}
        onSelectRun={props.onSelectRun}
      />
      {view === 'trace' ? (
        <TraceView
          events={props.events}
          run={props.run}
          selection={props.selection}
          onSelect={props.onSelect}
        />
      ) : props.steps.length === 0 ? (
        <p className="muted">
          {props.run ? 'Waiting for events…' : 'No run yet: fill in the input and press Run.'}
        </p>
      ) : (
        <ol className="steps">
          {props.steps.map((step) => (
            <li key={step.key} className={`step step-${step.status}`}>
              <button
                type="button"
                data-testid="step"
                data-step={step.step ?? ''}
                className={`step-button${isSelected(step.key) ? ' selected' : ''}`}
                onClick={() => props.onSelect({ kind: 'step', key: step.key })}
              >
                <span className="step-number">{step.step === undefined ? '•' : `step ${step.step}`}</span>
                <span className="step-tasks">{step.tasks.join(', ') || 'input'}</span>
              </button>
              <StepEvents events={step.events} selection={props.selection} onSelect={props.onSelect} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
