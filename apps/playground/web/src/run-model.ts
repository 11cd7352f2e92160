import type { Json, RunInfo, WireEvent } from '../../src/shared/wire.ts';

/** How a node fared in the run being shown. */
export type NodeStatus = 'running' | 'done' | 'failed' | 'paused' | 'cancelled';

/** A node's status and how many of its tasks finished (a loop or a fan-out runs a node often). */
export interface NodeState {
  readonly status: NodeStatus;
  readonly finished: number;
}

/** One superstep of a run, with its events (DAG runs, which have no steps, get one per node start). */
export interface StepView {
  readonly key: string;
  readonly step: number | undefined;
  readonly tasks: readonly string[];
  /** State after the step (state graphs), when it ended. */
  readonly values: Json | undefined;
  readonly status: 'running' | 'done' | 'failed';
  readonly events: readonly WireEvent[];
}

/** The key of a node path in the status map (`summarize/draft`). */
export function pathKey(path: readonly string[]): string {
  return path.join('/');
}

/**
 * The status of every node (by path key) from a run's events: running from `node-start`, done from
 * `node-end`, failed from `node-error`, paused from `interrupt` (and the run's pending interrupts, which
 * include breakpoints); a node still running when the run was stopped shows as cancelled.
 */
export function nodeStates(events: readonly WireEvent[], run: RunInfo | undefined): Map<string, NodeState> {
  const states = new Map<string, NodeState & { running: number }>();
  const get = (key: string) => states.get(key) ?? { status: 'done' as NodeStatus, finished: 0, running: 0 };
  for (const event of events) {
    const key = pathKey(event.path);
    const current = get(key);
    if (event.type === 'node-start')
      states.set(key, { ...current, status: 'running', running: current.running + 1 });
    else if (event.type === 'node-end' || event.type === 'node-error') {
      const running = Math.max(0, current.running - 1);
      const failed = event.type === 'node-error' || current.status === 'failed';
      const status = failed ? 'failed' : running > 0 ? 'running' : 'done';
      states.set(key, { status, running, finished: current.finished + (event.type === 'node-end' ? 1 : 0) });
    } else if (event.type === 'interrupt') states.set(key, { ...current, status: 'paused', running: 0 });
  }
  for (const interrupt of run?.interrupts ?? []) {
    const key = pathKey(interrupt.path);
    states.set(key, { ...get(key), status: 'paused', running: 0 });
  }
  if (run && run.status !== 'running') {
    for (const [key, state] of states) {
      if (state.status === 'running')
        states.set(key, { ...state, status: run.status === 'error' ? 'failed' : 'cancelled' });
    }
  }
  return states;
}

type MutableStep = { -readonly [K in keyof StepView]: StepView[K] } & { events: WireEvent[] };

function openStep(
  steps: MutableStep[],
  key: string,
  step: number | undefined,
  tasks: readonly string[],
): MutableStep {
  const view: MutableStep = { key, step, tasks, values: undefined, status: 'running', events: [] };
  steps.push(view);
  return view;
}

/** Pregel runs: one row per top-level superstep; events outside any step join the nearest one. */
function superstepRows(events: readonly WireEvent[]): StepView[] {
  const steps: MutableStep[] = [];
  let current: MutableStep | undefined;
  for (const event of events) {
    if (event.type === 'step-start' && event.path.length === 0) {
      current = openStep(steps, `step-${event.step}-${event.seq}`, event.step, event.tasks);
    }
    current ??= openStep(steps, 'input', undefined, []);
    current.events.push(event);
    if (event.type === 'step-end' && event.path.length === 0) {
      current.values = event.values;
      current.status = 'done';
    } else if (event.type === 'node-error' && event.path.length === 1) current.status = 'failed';
  }
  return steps;
}

/** DAG runs have no supersteps: one row per top-level node task, holding that task's events. */
function taskRows(events: readonly WireEvent[]): StepView[] {
  const steps: MutableStep[] = [];
  const byTask = new Map<unknown, MutableStep>();
  let current: MutableStep | undefined;
  for (const event of events) {
    if (event.type === 'node-start' && event.path.length === 1) {
      current = openStep(steps, `task-${event.seq}`, undefined, [String(event.node)]);
      byTask.set(event.taskId, current);
    }
    const row =
      (event.path.length === 1 && 'taskId' in event ? byTask.get(event.taskId) : undefined) ??
      current ??
      openStep(steps, 'input', undefined, []);
    current ??= row;
    row.events.push(event);
    if (event.type === 'node-end' && event.path.length === 1) {
      row.values = event.output;
      row.status = 'done';
    } else if (event.type === 'node-error' && event.path.length === 1) row.status = 'failed';
  }
  return steps;
}

/** Groups a run's events into rows: supersteps (pregel) or node tasks (DAG runs, which have no steps). */
export function stepsOf(events: readonly WireEvent[]): StepView[] {
  return events.some((e) => e.type === 'step-start') ? superstepRows(events) : taskRows(events);
}

/** The input a run started with (from `run-start`), the "before" of its first step. */
export function runInput(events: readonly WireEvent[]): Json | undefined {
  for (const event of events) if (event.type === 'run-start') return event.input;
  return undefined;
}

/** Text streamed by the model during a run, one entry per model call (the last may still grow). */
export function streamedText(events: readonly WireEvent[]): string[] {
  const texts: string[] = [];
  let open = false;
  for (const event of events) {
    if (event.type === 'chunk' && typeof event.agent === 'string') {
      if (!open) texts.push('');
      open = true;
      const { chunk } = event;
      const text =
        typeof chunk === 'object' && chunk !== null && !Array.isArray(chunk) ? chunk.text : undefined;
      if (typeof text === 'string') texts[texts.length - 1] += text;
    } else if (event.type === 'model-call') open = false;
  }
  return texts.filter((text) => text !== '');
}

/**
 * Whether an event is the end of a run the user stopped: the engine reports a stop as `run-error`
 * with code `ABORTED`, which is not a failure.
 */
export function isStopEvent(event: WireEvent): boolean {
  return event.type === 'run-error' && event.error.code === 'ABORTED';
}

/** Top-level supersteps started so far. */
export function stepCount(events: readonly WireEvent[]): number {
  const starts = events.filter((e) => e.type === 'step-start' && e.path.length === 0).length;
  return starts > 0 ? starts : events.filter((e) => e.type === 'node-start' && e.path.length === 1).length;
}
