import type { EvalRunInfo, EvalSetInfo } from '../../../src/shared/eval-wire.ts';
import { call } from '../api.ts';

/** The Evals tab's API. */
export const evalApi = {
  sets: () => call<EvalSetInfo[]>('GET', '/api/evals'),
  runs: (setId: string) => call<EvalRunInfo[]>('GET', `/api/evals/${encodeURIComponent(setId)}/runs`),
  run: (runId: string) => call<EvalRunInfo>('GET', `/api/evals/runs/${encodeURIComponent(runId)}`),
  start: (setId: string, agentId: string, repeats: number) =>
    call<EvalRunInfo>('POST', `/api/evals/${encodeURIComponent(setId)}/runs`, { agentId, repeats }),
};
