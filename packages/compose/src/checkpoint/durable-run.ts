import { carryEffects } from '../effects/carry-effects.js';
import { WeftError } from '../errors/weft-error.js';
import { sortableId } from '../internal/ids.js';
import { matchValues, pendingInterrupts, planResume } from '../interrupt/resume.js';
import { withWrites } from '../pregel/drive.js';
import { PregelLoop } from '../pregel/loop.js';
import type { LoopHooks, LoopSnapshot } from '../pregel/loop-hooks.js';
import { type RunContext, runContext } from '../pregel/run-context.js';
import { type Command, isCommand } from '../vocabulary/command.js';
import { reopenPauses } from './answered-pauses.js';
import { CheckpointSession } from './checkpoint-session.js';
import type { Checkpointer, ThreadClaim } from './checkpointer.js';
import { runDagDurable } from './dag-durable-run.js';
import { durableContext } from './durable-context.js';
import type { DurableResult, DurableRun, DurableTarget } from './durable-target.js';
import { type LoadedCheckpoint, loadCheckpoint } from './load.js';
import { loadRouting, loadTasks, renewTaskIds } from './loop-state.js';
import { collectNestedWrites } from './nested-writes.js';
import { writeClaimed } from './thread-write.js';

/** True when `input` asks to continue a thread rather than start a new turn. */
export function isContinuation(input: unknown): input is Command | null | undefined {
  return input === null || input === undefined || isCommand(input);
}

/**
 * Runs a graph with checkpoints: new input is applied over the thread's latest state (a new turn);
 * `null` continues from the latest (or given) checkpoint; a `Command({ resume })` answers pending
 * interrupts. Tasks that finished before a pause or cancel are not run again.
 */
export async function runDurable(call: DurableRun): Promise<DurableResult> {
  const { target } = call;
  // One writer per thread: the root run claims the thread before it reads the head (a nested run is
  // covered by its root's claim), so a racing run fails here, before any node runs.
  const claim = target.nested ? undefined : await target.checkpointer.claimThread(target.threadId);
  // A claim the store reports lost stops the run at once: no further step starts (see `fenced`).
  const lost = claim?.lost;
  const unlink = lost && linkLoss(call.run, lost);
  try {
    return await runClaimed(call, claim);
  } catch (error) {
    // The run stopped because its claim went: report the conflict, not the abort it caused.
    if (lost?.aborted) throw lost.reason;
    throw error;
  } finally {
    unlink?.();
    await claim?.release();
  }
}

/** Aborts `run` when `lost` fires (at once if it already did); returns the unsubscribe. */
function linkLoss(run: RunContext, lost: AbortSignal): () => void {
  const onLost = (): void => run.abort(lost.reason);
  if (lost.aborted) onLost();
  else lost.addEventListener('abort', onLost, { once: true });
  return () => lost.removeEventListener('abort', onLost);
}

/**
 * The session's loop hooks, checking the claim with its store after every step and before the next one
 * starts (the loop checks the run's abort there); the hooks as they are when the store reports every
 * loss on `claim.lost` by itself.
 */
function fenced(hooks: LoopHooks, claim: ThreadClaim | undefined): LoopHooks {
  const verify = claim?.verify?.bind(claim);
  const afterStep = hooks.afterStep;
  if (verify === undefined || afterStep === undefined) return hooks;
  return {
    ...hooks,
    afterStep: (loop, record) => {
      verify();
      return afterStep(loop, record);
    },
  };
}

async function runClaimed(call: DurableRun, claim?: ThreadClaim): Promise<DurableResult> {
  const { topology, run, target } = call;
  const recordWrites = call.recordWrites ?? false;
  let { input } = call;
  const { checkpointer, threadId, ns } = target;
  let loaded = await loadCheckpoint(checkpointer, topology, { threadId, ns, id: target.checkpointId });
  let head =
    loaded && target.checkpointId !== undefined ? await headSeq(checkpointer, threadId, ns) : undefined;
  let fork = loaded !== undefined && head !== undefined && head.id !== loaded.record.id;
  // Answering an older checkpoint's pauses: those the thread answered since are asked again on the fork.
  if (loaded && fork && isCommand(input) && input.hasResume) loaded = reopenPauses(loaded);
  if (!target.nested && loaded && isCommand(input) && (input.update !== undefined || input.goto.length > 0)) {
    if (topology.mode === 'dag' && input.goto.length > 0) {
      throw new WeftError(
        'INVALID_UPDATE',
        `graph "${topology.name}" runs in DAG mode, where a Command input cannot goto; give only update and resume`,
      );
    }
    // The update checkpoint becomes the head, which the run continues from.
    loaded = await commitCommand(call, input, loaded);
    head = undefined;
    fork = false;
  }
  const session = new CheckpointSession({
    graph: topology,
    checkpointer,
    threadId,
    ns,
    durability: target.durability,
    parents: target.parents,
    ...(run.observer.event ? { onSaved: savedEvent(run, threadId) } : {}),
  });
  let resumeById: ReadonlyMap<string, unknown> = target.resumeById ?? new Map();
  const durable = durableContext(target, session, {
    resumeById: () => resumeById,
    storesTaskCalls: true,
  });
  const loop = new PregelLoop(topology, runContext({ ...run, durable }), {
    hooks: fenced(session.hooks(), claim),
    recordWrites,
    breakpoints: target.breakpoints,
    saveEveryTask: target.taskWrites === 'all',
  });
  if (loaded) session.continueFrom(loaded, fork, head?.seq);
  try {
    if (target.nested && loaded) {
      if (!isFinished(loaded)) input = null;
      else if (!target.keepsState) return finishedResult(loop, loaded, recordWrites ? target : undefined);
    }
    if (topology.mode === 'dag') {
      const start = { loaded, fork, headSeq: head?.seq, session, input, continuation: isContinuation(input) };
      return await runDagDurable(call, start);
    }
    if (isContinuation(input)) {
      if (!loaded)
        throw new WeftError(
          'NOT_FOUND',
          `thread "${threadId}" has no checkpoint to continue from; start it with an input`,
        );
      resumeById = restore(loop, loaded, { input, inherited: resumeById, fork });
      if (fork) await session.saveFork(loop);
      await showResumed(loop);
    } else {
      if (loaded) loop.restore(continueState(loaded));
      session.startInput();
      await loop.begin(input);
    }
    const result = await loop.loop();
    await session.flush();
    const writes =
      target.nested && loaded && recordWrites
        ? await collectNestedWrites(checkpointer, threadId, ns)
        : loop.writes;
    return withWrites(result, writes, session.currentId);
  } catch (error) {
    await session.flush().catch(() => undefined);
    throw error;
  }
}

/**
 * A `Command` given as run input with `update` and/or `goto`: checks its `resume` against the pending
 * interrupts, then writes the update (on top, through the reducers) and adds the goto targets to the next
 * step as an `update` checkpoint, which the run continues from. Paused and finished tasks of the step are
 * kept, so the resume still answers them.
 */
async function commitCommand(
  call: DurableRun,
  command: Command,
  loaded: LoadedCheckpoint,
): Promise<LoadedCheckpoint> {
  const { topology, run, target } = call;
  if (command.hasResume) matchValues(pendingInterrupts(loaded), command.resume);
  const { checkpointer, threadId, ns } = target;
  const id = await writeClaimed({ checkpointer, topology, run, threadId }, command.update ?? null, {
    checkpointId: loaded.record.id,
    goto: command.goto,
  });
  return (await loadCheckpoint(checkpointer, topology, { threadId, ns, id })) as LoadedCheckpoint;
}

/** How a continuation restores a loop from its checkpoint (see {@link restore}). */
interface RestoreFrom {
  /** The continuation's input: `null`, or a `Command` (its `resume` answers the pauses). */
  readonly input: Command | null | undefined;
  /** Answers inherited from the parent run, by interrupt id. */
  readonly inherited: ReadonlyMap<string, unknown>;
  /** The checkpoint is not the head: its next step runs again under new task ids. */
  readonly fork: boolean;
}

function restore(
  loop: PregelLoop,
  loaded: LoadedCheckpoint,
  from: RestoreFrom,
): ReadonlyMap<string, unknown> {
  const { input, inherited, fork } = from;
  const tasks = loadTasks(loop.topology, loaded.body.next);
  const command = isCommand(input) ? input : undefined;
  // Replaying an older checkpoint runs its next step again: outputs, pauses and subgraph checkpoints the
  // other branch stored under these task ids are not reused, so a subgraph runs again from its start.
  // Answering the older checkpoint's pauses (`Command({ resume })`) keeps the paused tasks' ids.
  const answering = command?.hasResume === true;
  const next = fork
    ? renewTaskIds(
        loop.topology,
        tasks,
        sortableId(),
        (task) => answering && loaded.taskWrites.get(task.id)?.kind === 'paused',
      )
    : tasks;
  const answer =
    command?.hasResume === true
      ? { kind: 'value' as const, value: command.resume }
      : { kind: 'inherited' as const, byId: inherited };
  const plan = planResume(loaded, next, answer);
  if (fork) carryEffects(plan.memo, tasks, next);
  loop.restore({
    ...continueState(loaded),
    routing: loadRouting(loop.topology, loaded.body.routing),
    tasks: next,
    known: plan.known.size > 0 ? plan.known : undefined,
    resume: plan.resume.size > 0 ? plan.resume : undefined,
    memo: plan.memo.size > 0 ? plan.memo : undefined,
    // A before-breakpoint is passed once the step was entered (it stopped there, or some task of it ran
    // or paused), and when the state was edited with `updateState` to continue.
    skipBefore: loaded.record.source === 'update' || next.some((task) => loaded.taskWrites.has(task.id)),
  });
  return new Map([...inherited, ...plan.byId]);
}

/**
 * A continuation's `values` stream starts with the state it continues from, as the reference engine's
 * does: the checkpoint's own values (the writes of a paused step's finished tasks come with the step).
 */
async function showResumed(loop: PregelLoop): Promise<void> {
  const { run } = loop;
  if (!run.observer.values || !loop.topology.state) return;
  const wait = run.observer.values(loop.values, run.path);
  if (wait) await wait;
}

function isFinished(loaded: LoadedCheckpoint): boolean {
  return loaded.body.next.length === 0 && ![...loaded.taskWrites.values()].some((w) => w.kind === 'paused');
}

/**
 * A nested graph whose checkpoint is finished: its result without running, with its recorded writes
 * collected from `writesOf` (given when the parent reads them).
 */
async function finishedResult(
  loop: PregelLoop,
  loaded: LoadedCheckpoint,
  writesOf: DurableTarget | undefined,
): Promise<DurableResult> {
  loop.restore({ ...continueState(loaded), routing: loadRouting(loop.topology, loaded.body.routing) });
  const writes = writesOf
    ? await collectNestedWrites(writesOf.checkpointer, writesOf.threadId, writesOf.ns)
    : undefined;
  return withWrites(
    { status: 'done', output: loop.output(), interrupts: [], steps: 0 },
    writes,
    loaded.record.id,
  );
}

/** The state a loop continues from after a loaded checkpoint: its values and the next step. */
function continueState(loaded: LoadedCheckpoint): Pick<LoopSnapshot, 'values' | 'step'> {
  return { values: loaded.values, step: loaded.record.step + 1 };
}

/** Id and `seq` of the namespace's head (its latest checkpoint). */
export async function headSeq(
  checkpointer: Checkpointer,
  threadId: string,
  ns: string,
): Promise<{ readonly id: string; readonly seq: number } | undefined> {
  const latest = await checkpointer.get(threadId, { ns });
  return latest && { id: latest.checkpoint.id, seq: latest.checkpoint.seq };
}

function savedEvent(run: RunContext, threadId: string): (id: string, step: number) => void {
  return (checkpointId, step) =>
    run.observer.event?.({
      type: 'checkpoint-save',
      runId: run.runId,
      ts: Date.now(),
      path: run.path,
      step,
      checkpointId,
      threadId,
    });
}
