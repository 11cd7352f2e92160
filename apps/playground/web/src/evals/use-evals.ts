import { useCallback, useEffect, useState } from 'react';
import type { EvalRunInfo, EvalSetInfo } from '../../../src/shared/eval-wire.ts';
import { evalApi } from './eval-api.ts';

/** The Evals tab's state: sets, the chosen set's runs, the runs opened in full, and actions. */
export function useEvals() {
  const [sets, setSets] = useState<EvalSetInfo[]>([]);
  const [setId, setSetId] = useState<string | undefined>();
  const [runs, setRuns] = useState<EvalRunInfo[]>([]);
  const [opened, setOpened] = useState<Record<string, EvalRunInfo>>({});
  const [selected, setSelected] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    evalApi.sets().then(
      (list) => {
        setSets(list);
        setSetId((current) => current ?? list[0]?.id);
      },
      (error: Error) => setProblem(error.message),
    );
  }, []);

  const refresh = useCallback(async (id: string) => {
    const list = await evalApi.runs(id);
    setRuns(list);
    return list;
  }, []);

  useEffect(() => {
    if (setId === undefined) return;
    setSelected([]);
    refresh(setId).catch((error: Error) => setProblem(error.message));
  }, [setId, refresh]);

  // Follow running runs until they finish; open the newest finished run.
  const running = runs.some((run) => run.status === 'running');
  useEffect(() => {
    if (!running || setId === undefined) return;
    const timer = setInterval(() => {
      refresh(setId).catch((error: Error) => setProblem(error.message));
    }, 300);
    return () => clearInterval(timer);
  }, [running, setId, refresh]);

  const wanted = selected.length > 0 ? selected : runs[0] && runs[0].status !== 'running' ? [runs[0].id] : [];
  const wantedKey = wanted.join(',');
  const finishedKey = runs
    .filter((r) => r.status !== 'running')
    .map((r) => r.id)
    .join(',');
  useEffect(() => {
    for (const id of wantedKey.split(',').filter(Boolean)) {
      if (opened[id]?.report?.cases.length || !finishedKey.split(',').includes(id)) continue;
      evalApi.run(id).then(
        (run) => setOpened((all) => ({ ...all, [id]: run })),
        (error: Error) => setProblem(error.message),
      );
    }
  }, [wantedKey, finishedKey, opened]);

  const start = useCallback(
    async (agentId: string, repeats: number) => {
      if (setId === undefined) return;
      try {
        await evalApi.start(setId, agentId, repeats);
        setSelected([]);
        await refresh(setId);
      } catch (error) {
        setProblem((error as Error).message);
      }
    },
    [setId, refresh],
  );

  // The ticked runs start from what is shown (the newest finished run when nothing was ticked yet).
  const newestDone = runs[0] && runs[0].status !== 'running' ? runs[0].id : undefined;
  const toggle = useCallback(
    (runId: string) => {
      setSelected((current) => {
        const base = current.length > 0 ? current : newestDone ? [newestDone] : [];
        return base.includes(runId) ? base.filter((id) => id !== runId) : [...base, runId].slice(-2);
      });
    },
    [newestDone],
  );

  return {
    sets,
    set: sets.find((s) => s.id === setId),
    runs,
    selected: wanted,
    opened: wanted.map((id) => opened[id]).filter((run): run is EvalRunInfo => run?.report !== undefined),
    problem,
    actions: { selectSet: setSetId, start, toggle, dismissProblem: () => setProblem(undefined) },
  };
}
