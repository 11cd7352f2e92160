import type { RunInfo, WireEvent } from '../../../src/shared/wire.ts';
import type { Selection } from '../selection.ts';
import { usePrices } from '../usage/prices-context.ts';
import { UsageTable } from '../usage/usage-table.tsx';
import { traceOf } from './trace-model.ts';

function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/**
 * The run as a waterfall: one bar per node task, nested subgraph and agent-tool node and model call,
 * placed over time with its duration (model calls with their tokens and cost); errors in red, pauses in
 * amber. Clicking a bar opens its event. Above it, the run's tokens and cost per agent.
 */
export function TraceView(props: {
  readonly events: readonly WireEvent[];
  readonly run: RunInfo | undefined;
  readonly selection: Selection;
  readonly onSelect: (selection: Selection) => void;
}) {
  const { spans, durationMs } = traceOf(props.events, props.run, usePrices());
  if (spans.length === 0) return <p className="muted">No run yet: the trace appears as the run goes.</p>;
  const scale = durationMs > 0 ? durationMs : 1;
  return (
    <>
      <UsageTable events={props.events} />
      <ol className="trace" data-testid="trace">
        {spans.map((span) => {
          const selected = props.selection?.kind === 'event' && props.selection.seq === span.seq;
          const left = (span.start / scale) * 100;
          const width = Math.max(((span.end - span.start) / scale) * 100, 0.4);
          return (
            <li key={span.id}>
              <button
                type="button"
                className={`span span-${span.kind} span-${span.status}${selected ? ' selected' : ''}`}
                data-testid="span"
                data-kind={span.kind}
                data-status={span.status}
                data-depth={span.depth}
                onClick={() => props.onSelect({ kind: 'event', seq: span.seq })}
              >
                <span
                  className="span-label"
                  style={{ paddingLeft: `${span.depth * 12}px` }}
                  title={span.label}
                >
                  {span.label}
                </span>
                <span className="span-track">
                  <span
                    className="span-bar"
                    style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }}
                  />
                </span>
                <span className="span-duration">{duration(span.end - span.start)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </>
  );
}
