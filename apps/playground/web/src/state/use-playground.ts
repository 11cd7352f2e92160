import { useCallback, useState } from 'react';
import type { Json, RunInfo, ThreadInfo } from '../../../src/shared/wire.ts';
import { ApiRequestError, api } from '../api.ts';
import type { FieldProblem } from '../input-form/schema-form.tsx';
import { useGraphs } from './use-graphs.ts';
import { useThreadDetail } from './use-thread-detail.ts';
import { useThreads } from './use-threads.ts';

/** A failed action: its message and the fields the server named. */
export interface Problem {
  readonly message: string;
  readonly fields: readonly FieldProblem[];
  readonly action: string;
}

/** Everything the playground shows, and what the user can do, in one hook. */
export function usePlayground() {
  const graphs = useGraphs();
  const threads = useThreads(graphs.graph?.id);
  const { setThreads, threadId } = threads;
  const replaceThread = useCallback(
    (thread: ThreadInfo) =>
      setThreads((old) => [thread, ...old.filter((t) => t.id !== thread.id)].sort(byUpdate)),
    [setThreads],
  );
  const detail = useThreadDetail(threadId, replaceThread, () => void threads.refreshThreads());
  const { problem, actions } = usePlaygroundActions({ graphs, threads, detail, replaceThread });
  return { ...graphs, threads: threads.threads, thread: threads.thread, ...detail, problem, actions };
}

type Act = (action: string, work: () => Promise<unknown>) => () => Promise<void>;

interface ActionContext {
  readonly graphs: ReturnType<typeof useGraphs>;
  readonly threads: ReturnType<typeof useThreads>;
  readonly detail: ReturnType<typeof useThreadDetail>;
  readonly replaceThread: (thread: ThreadInfo) => void;
  readonly act: Act;
}

/** Creating, deleting and picking threads (a run without a thread creates one first). */
function threadActions({ graphs, threads, act }: ActionContext) {
  const { setThreads, threadId, setThreadId } = threads;
  const create = async (): Promise<string> => {
    if (!graphs.graph) throw new Error('pick a graph first');
    const created = await api.createThread(graphs.graph.id);
    setThreads((old) => [created, ...old]);
    setThreadId(created.id);
    return created.id;
  };
  return {
    ensureThread: async () => threadId ?? (await create()),
    selectThread: setThreadId,
    createThread: act('thread', create),
    deleteThread: (id: string) =>
      act('thread', async () => {
        await api.deleteThread(id);
        setThreads((old) => old.filter((t) => t.id !== id));
        if (id === threadId) setThreadId(undefined);
      })(),
  };
}

/** Starting, stopping, resuming, continuing and forking runs, and toggling breakpoints. */
function runActions(ctx: ActionContext, ensureThread: () => Promise<string>) {
  const { threads, detail, act } = ctx;
  const follow = (info: RunInfo) => {
    detail.follow(info);
    threads.setThreads((old) => old.map((t) => (t.id === info.threadId ? { ...t, status: 'running' } : t)));
  };
  const onThread = (work: (id: string) => Promise<RunInfo>) => async () => {
    if (threads.threadId) follow(await work(threads.threadId));
  };
  return {
    start: (input: Json) => act('input', async () => follow(await api.start(await ensureThread(), input)))(),
    stop: act('stop', async () => detail.run && (await api.stop(detail.run.id))),
    resume: (value: Json, id: string) =>
      act(
        'resume',
        onThread((t) => api.resume(t, value, id)),
      )(),
    continue: act(
      'resume',
      onThread((t) => api.continue(t)),
    ),
    fork: (checkpointId: string, values: Record<string, Json> | undefined) =>
      act(
        'fork',
        onThread((t) => api.fork(t, checkpointId, values)),
      )(),
    toggleBreakpoint: (node: string, when: 'before' | 'after') =>
      act('breakpoint', async () => {
        const id = await ensureThread();
        const current = threads.threads.find((t) => t.id === id)?.breakpoints ?? { before: [], after: [] };
        const list = current[when].includes(node)
          ? current[when].filter((n) => n !== node)
          : [...current[when], node];
        ctx.replaceThread(await api.setBreakpoints(id, { ...current, [when]: list }));
      })(),
  };
}

/**
 * The user's actions: each reports a failure as a problem banner (with the fields the server named)
 * instead of throwing.
 */
function usePlaygroundActions(context: Omit<ActionContext, 'act'>) {
  const [problem, setProblem] = useState<Problem | undefined>();
  const act: Act = (action, work) => async () => {
    try {
      setProblem(undefined);
      await work();
    } catch (error) {
      const fields = error instanceof ApiRequestError ? error.issues : [];
      setProblem({ message: (error as Error).message, fields, action });
    }
  };
  const ctx = { ...context, act };
  const { ensureThread, ...forThreads } = threadActions(ctx);
  const actions = {
    selectGraph: context.graphs.setGraphId,
    selectRun: context.detail.setRunId,
    select: context.detail.setSelection,
    ...forThreads,
    ...runActions(ctx, ensureThread),
    dismissProblem: () => setProblem(undefined),
  };
  return { problem, actions };
}

function byUpdate(a: ThreadInfo, b: ThreadInfo): number {
  return b.updatedAt.localeCompare(a.updatedAt);
}
