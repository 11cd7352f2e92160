import { useEffect, useState } from 'react';
import type { EvalRunInfo } from '../../../src/shared/eval-wire.ts';
import { RunComparison } from './run-comparison.tsx';
import { RunReport } from './run-report.tsx';
import { useEvals } from './use-evals.ts';

function RunRow(props: {
  readonly run: EvalRunInfo;
  readonly selected: boolean;
  readonly onToggle: () => void;
}) {
  const { run } = props;
  const totals = run.report?.totals;
  return (
    <li className={props.selected ? 'selected' : ''} data-testid="eval-run" data-status={run.status}>
      <label>
        <input
          type="checkbox"
          checked={props.selected}
          onChange={props.onToggle}
          disabled={run.status === 'running'}
        />
        <span>{new Date(run.startedAt).toLocaleTimeString()}</span>
        <span className="eval-run-agent">{run.agentId}</span>
        {run.status === 'running' && (
          <span className="badge badge-running">
            {run.progress.done}/{run.progress.total}
          </span>
        )}
        {run.status === 'failed' && <span className="badge badge-error">failed</span>}
        {totals && (
          <span className={`badge ${totals.passed === totals.cases ? 'badge-done' : 'badge-error'}`}>
            {totals.passed}/{totals.cases}
          </span>
        )}
      </label>
      {run.error && <div className="error-text">{run.error}</div>}
    </li>
  );
}

/** The Evals tab: the app's eval sets, runs against any agent, a run's report, and two runs compared. */
export function EvalsView() {
  const e = useEvals();
  const [agentId, setAgentId] = useState<string>('');
  const [repeats, setRepeats] = useState(1);
  useEffect(() => {
    if (e.set && !e.set.agents.includes(agentId)) setAgentId(e.set.agents[0] ?? '');
  }, [e.set, agentId]);
  return (
    <div className="evals" data-testid="evals">
      <aside className="sidebar">
        <section>
          <h2>Eval sets</h2>
          {e.sets.length === 0 && <p className="muted">No eval sets: add `evals` to defineApp.</p>}
          <ul>
            {e.sets.map((set) => (
              <li key={set.id} className={set.id === e.set?.id ? 'selected' : ''}>
                <button
                  type="button"
                  className="thread"
                  data-testid="eval-set"
                  onClick={() => e.actions.selectSet(set.id)}
                >
                  <span className="thread-title">{set.name}</span>
                  <span className="muted">{set.problem ? 'invalid' : `${set.cases.length} cases`}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
        {e.set && (
          <section>
            <h2>Runs</h2>
            <p className="muted">Tick two runs to compare them.</p>
            <ul className="eval-runs">
              {e.runs.map((run) => (
                <RunRow
                  key={run.id}
                  run={run}
                  selected={e.selected.includes(run.id)}
                  onToggle={() => e.actions.toggle(run.id)}
                />
              ))}
            </ul>
          </section>
        )}
      </aside>
      <main className="eval-main">
        {e.problem && (
          <div className="banner error">
            {e.problem}
            <button type="button" className="icon" onClick={e.actions.dismissProblem} aria-label="Dismiss">
              ×
            </button>
          </div>
        )}
        {e.set && (
          <header className="eval-header">
            <div>
              <h2>{e.set.name}</h2>
              {e.set.description && <p className="muted">{e.set.description}</p>}
              {e.set.problem && <p className="error-text">{e.set.problem}</p>}
            </div>
            <div className="eval-start">
              <label>
                agent{' '}
                <select
                  data-testid="eval-agent"
                  value={agentId}
                  onChange={(ev) => setAgentId(ev.target.value)}
                >
                  {e.set.agents.map((id) => (
                    <option key={id} value={id}>
                      {id}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                runs per case{' '}
                <input
                  type="number"
                  min={1}
                  max={20}
                  value={repeats}
                  onChange={(ev) => setRepeats(Math.max(1, Math.min(20, Number(ev.target.value) || 1)))}
                />
              </label>
              <button
                type="button"
                data-testid="eval-run-button"
                disabled={!agentId || e.set.problem !== undefined}
                onClick={() => void e.actions.start(agentId, repeats)}
              >
                Run eval
              </button>
            </div>
          </header>
        )}
        {e.opened.length === 2 ? (
          <RunComparison runs={[e.opened[0] as EvalRunInfo, e.opened[1] as EvalRunInfo]} />
        ) : (
          e.opened[0] && <RunReport run={e.opened[0]} />
        )}
      </main>
    </div>
  );
}
