import type { CaseRun } from '@weft/eval';

function json(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value);
}

/**
 * One case run in detail: per turn, what was said, the expected tool calls beside the ones made (a
 * row is red where the names differ), the response, and every scorer's verdict with its reason.
 */
export function CaseDetail({ run }: { readonly run: CaseRun }) {
  return (
    <div className="eval-case-detail" data-testid="eval-case-detail">
      {run.error && <p className="error-text">{run.error}</p>}
      {run.turns.map(({ turn, capture }, index) => {
        const expected = turn.expect?.tools ?? [];
        const rows = Math.max(expected.length, capture.toolCalls.length);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: turns are fixed, in order
          <div key={index} className="eval-turn">
            <div className="eval-turn-say">
              <strong>turn {index + 1}</strong>{' '}
              {turn.user !== undefined ? `user: ${turn.user}` : `resume: ${json(turn.resume)}`}
            </div>
            {(turn.expect?.tools !== undefined || capture.toolCalls.length > 0) && (
              <table className="eval-trajectory" data-testid="eval-trajectory">
                <thead>
                  <tr>
                    <th>expected{turn.expect?.toolMatch ? ` (${turn.expect.toolMatch})` : ''}</th>
                    <th>actual</th>
                  </tr>
                </thead>
                <tbody>
                  {Array.from({ length: rows }, (_, i) => {
                    const want = expected[i];
                    const got = capture.toolCalls[i];
                    const ok = want !== undefined && got !== undefined && want.name === got.name;
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: positions are the point of the diff
                      <tr key={i} className={ok ? 'eval-row-ok' : 'eval-row-diff'}>
                        <td>{want ? `${want.name}(${json(want.args)})` : '—'}</td>
                        <td>{got ? `${got.name}(${json(got.args)})` : '—'}</td>
                      </tr>
                    );
                  })}
                  {rows === 0 && (
                    <tr className="eval-row-ok">
                      <td>no tool calls</td>
                      <td>no tool calls</td>
                    </tr>
                  )}
                </tbody>
              </table>
            )}
            <div className="eval-response">
              <span className="muted">response:</span> {capture.response || <em className="muted">none</em>}
              {turn.expect?.response && (
                <span className="muted"> · expected {json(turn.expect.response)}</span>
              )}
            </div>
          </div>
        );
      })}
      <ul className="eval-scores">
        {run.scores.map((score) => (
          <li key={score.scorer} className={score.pass ? 'eval-pass' : 'eval-fail'}>
            {score.scorer} {score.score.toFixed(2)} (≥ {score.threshold}): {score.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
