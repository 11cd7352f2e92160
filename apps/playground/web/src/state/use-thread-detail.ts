import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RunInfo, SnapshotInfo, ThreadInfo } from '../../../src/shared/wire.ts';
import { api } from '../api.ts';
import type { Selection } from '../selection.ts';
import { useRunEvents } from './use-run-events.ts';

/**
 * What the page shows of one thread: its runs, the events of the run on display (live), its
 * checkpoint history (kept current while a run checkpoints) and the selected step, event or checkpoint.
 */
export function useThreadDetail(
  threadId: string | undefined,
  onThread: (thread: ThreadInfo) => void,
  onRunEnd: () => void,
) {
  const [runs, setRuns] = useState<RunInfo[]>([]);
  const [runId, setRunId] = useState<string | undefined>();
  const [history, setHistory] = useState<SnapshotInfo[]>([]);
  const [selection, setSelection] = useState<Selection>();
  const onThreadRef = useRef(onThread);
  onThreadRef.current = onThread;
  const refresh = useCallback(async (id: string) => {
    const [detail, states] = await Promise.all([api.thread(id), api.history(id)]);
    // Keep runs this page just started that the server's answer may predate.
    setRuns((old) => [
      ...detail.runs,
      ...old.filter((r) => r.threadId === id && !detail.runs.some((d) => d.id === r.id)),
    ]);
    setHistory(states);
    onThreadRef.current(detail.thread);
    return detail;
  }, []);
  useEffect(() => {
    setRuns([]);
    setRunId(undefined);
    setHistory([]);
    setSelection(undefined);
    if (threadId) void refresh(threadId).then((detail) => setRunId((old) => old ?? detail.runs.at(-1)?.id));
  }, [threadId, refresh]);
  const { events, final } = useRunEvents(runId, () => {
    if (threadId) void refresh(threadId);
    onRunEnd();
  });
  useHistoryWhileRunning(
    threadId,
    events.filter((e) => e.type === 'checkpoint-save' && e.path.length === 0).length,
    setHistory,
  );
  const run = useMemo(
    () => (final && final.id === runId ? final : runs.find((r) => r.id === runId)),
    [runs, runId, final],
  );
  const follow = useCallback((info: RunInfo) => {
    setRuns((old) => [...old.filter((r) => r.id !== info.id), info]);
    setRunId(info.id);
    setSelection(undefined);
  }, []);
  return { runs, run, runId, setRunId, events, history, selection, setSelection, follow };
}

/** Refreshes the history when a run saves checkpoints (at most every 500 ms). */
function useHistoryWhileRunning(
  threadId: string | undefined,
  saves: number,
  set: (h: SnapshotInfo[]) => void,
) {
  const last = useRef(0);
  useEffect(() => {
    if (saves === 0 || !threadId) return;
    const timer = window.setTimeout(
      () => {
        last.current = Date.now();
        void api.history(threadId).then(set, () => undefined);
      },
      Math.max(0, last.current + 500 - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [saves, threadId, set]);
}
