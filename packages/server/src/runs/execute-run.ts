// Executes one run: streams its graph, stores each API event as it comes, and records how it ended
// (run status, thread status, a rollback's discarded progress).
import type { JsonValue, StreamMode } from '@weft/compose';
import type {
  AssistantRecord,
  RunRecord,
  RunStatus,
  ThreadRecord,
  ThreadStatus,
} from '../records/record-types.js';
import { runInput, runOptions } from './run-input.js';
import { graphOf, nowIso, type ServerContext } from './server-context.js';
import { StreamMapping } from './stream-mapping.js';

/** Why a running run was stopped from outside. */
export type StopReason = 'interrupt' | 'rollback' | 'shutdown';

/** How to stop a running run, and why it was stopped. */
export interface RunControl {
  readonly controller: AbortController;
  reason?: StopReason;
}

/** What executing a run came to. */
export interface RunOutcome {
  readonly status: RunStatus | 'rolled-back' | 'handed-back';
  readonly error?: string;
}

/**
 * Runs `run` to its end. Never throws: a failing graph is an `error` event and status; a stop is
 * `interrupted` (progress kept), a rollback (progress discarded: the thread goes back to the checkpoint
 * it had before the run) or, at shutdown, a hand-back (the run is pending again, continued from its last
 * checkpoint by the next server over the same stores).
 */
export async function executeRun(
  context: ServerContext,
  parts: { readonly run: RunRecord; readonly assistant: AssistantRecord; readonly control: RunControl },
): Promise<RunOutcome> {
  const { run, assistant, control } = parts;
  const { records, events } = context;
  const append = (event: string, data: JsonValue) => events.append(run.run_id, event, data);
  const thread = (await records.thread(run.thread_id)) as ThreadRecord;
  const graph = graphOf(context, assistant.graph_id);
  const before = (await graph.getState(run.thread_id).catch(() => undefined))?.checkpointId ?? null;
  const resumeOnly = run.resume === true; // recovered or handed back: continue from its checkpoint
  const { resume: _resume, ...started } = run;
  await records.putRun({ ...started, status: 'running', updated_at: nowIso() });
  const mapping = new StreamMapping(run.kwargs.stream_mode, run.kwargs.stream_subgraphs, {
    runId: run.run_id,
    threadId: run.thread_id,
    graphId: assistant.graph_id,
    assistantId: assistant.assistant_id,
  });
  let outcome: RunOutcome;
  try {
    await append('metadata', { run_id: run.run_id, attempt: resumeOnly ? 2 : 1 });
    const options = runOptions({ run, assistant, thread, graph, signal: control.controller.signal });
    if (thread.rollback_to !== undefined) await records.putThread(withoutRollback(thread));
    const stream = graph.stream(runInput(run, resumeOnly) as never, {
      ...options,
      mode: mapping.weftModes(),
      subgraphs: mapping.streamsSubgraphs(),
    }) as AsyncIterable<readonly [StreamMode, unknown]>;
    for await (const [mode, payload] of stream) {
      for (const out of mapping.map(mode, payload)) await append(out.event, out.data);
    }
    outcome = { status: 'success' };
  } catch (error) {
    outcome = stopped(control) ?? { status: 'error', error: describe(error) };
    if (outcome.status === 'error') {
      const failure = error instanceof Error ? error : new Error(String(error));
      await append('error', { error: failure.name, message: failure.message });
      context.log('warn', 'run failed', { run_id: run.run_id, error: failure.message });
    }
  }
  if (outcome.status === 'rolled-back') await rollBack(context, run.thread_id, before);
  return outcome;
}

function stopped(control: RunControl): RunOutcome | undefined {
  if (!control.controller.signal.aborted) return undefined;
  if (control.reason === 'rollback') return { status: 'rolled-back' };
  if (control.reason === 'shutdown') return { status: 'handed-back' };
  return { status: 'interrupted' };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function withoutRollback(thread: ThreadRecord): ThreadRecord {
  const { rollback_to: _dropped, ...rest } = thread;
  return rest;
}

/** Takes the thread back to `before` (the checkpoint it had when the run started; none: no state). */
async function rollBack(context: ServerContext, threadId: string, before: string | null): Promise<void> {
  const thread = await context.records.thread(threadId);
  if (!thread) return;
  if (before === null) {
    await context.checkpointer.deleteThread(threadId);
    await context.records.putThread(withoutRollback(thread));
  } else {
    await context.records.putThread({ ...thread, rollback_to: before });
  }
}

/** The thread's status once no run of it is running: its state's pauses and last error decide it. */
export async function settledThreadStatus(
  context: ServerContext,
  thread: ThreadRecord,
  lastError: string | undefined,
): Promise<{ status: ThreadStatus; error: string | null }> {
  if (lastError !== undefined) return { status: 'error', error: lastError };
  if (thread.graph_id === null || !context.graphs.has(thread.graph_id))
    return { status: 'idle', error: null };
  const graph = graphOf(context, thread.graph_id);
  const state = await graph
    .getState(thread.thread_id, thread.rollback_to === undefined ? {} : { checkpointId: thread.rollback_to })
    .catch(() => undefined);
  return { status: state && state.interrupts.length > 0 ? 'interrupted' : 'idle', error: null };
}
