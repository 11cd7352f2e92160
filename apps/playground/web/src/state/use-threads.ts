import { useCallback, useEffect, useState } from 'react';
import type { ThreadInfo } from '../../../src/shared/wire.ts';
import { api } from '../api.ts';

/** The threads of a graph and the selected one. */
export function useThreads(graphId: string | undefined) {
  const [threads, setThreads] = useState<ThreadInfo[]>([]);
  const [threadId, setThreadId] = useState<string | undefined>();
  const refreshThreads = useCallback(async () => {
    if (graphId) setThreads(await api.threads(graphId));
  }, [graphId]);
  useEffect(() => {
    setThreadId(undefined);
    setThreads([]);
    void refreshThreads().catch(() => undefined);
  }, [refreshThreads]);
  return {
    threads,
    setThreads,
    thread: threads.find((t) => t.id === threadId),
    threadId,
    setThreadId,
    refreshThreads,
  };
}
