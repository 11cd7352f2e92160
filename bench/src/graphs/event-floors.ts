// Two floors for goal 6 of issue #28 (`events` ≤ 1.5× `invoke`): what any event stream of a chain's run
// must pay whatever the engine does, timed next to Weft's own `invoke` of the same chain.
//   - turns: the events a Weft run emitted, already made, handed to the consumer one per `for await`
//     turn — the least a stream that yields one event per turn can cost (a promise, a microtask and a
//     resumed async function per event).
//   - objects: the same events made afresh with their documented fields and one clock read per step,
//     handed over in bursts — the least a batched stream of those events can cost.

/** The events of one run, ready to hand out one per turn by a minimal async iterator. */
export function readyEvents<T>(events: readonly T[]): AsyncIterableIterator<T> {
  let next = 0;
  const iterator: AsyncIterableIterator<T> = {
    next: () =>
      Promise.resolve(
        next < events.length
          ? { value: events[next++] as T, done: false }
          : { value: undefined as unknown as T, done: true },
      ),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** What every event carries. */
interface Stamped {
  readonly runId: string;
  readonly ts: number;
  readonly path: readonly string[];
}

/** An event of a chain's run with the fields Weft documents for its kind. */
export type FloorEvent = Stamped &
  (
    | { type: 'run-start'; graph: string; input: unknown }
    | { type: 'step-start'; step: number; tasks: readonly string[] }
    | { type: 'node-start'; step: number; node: string; taskId: string; input: unknown; attempt: number }
    | { type: 'node-end'; step: number; node: string; taskId: string; output: unknown; durationMs: number }
    | { type: 'step-end'; step: number; durationMs: number; values: unknown }
    | { type: 'run-end'; graph: string; output: unknown; steps: number; durationMs: number; status: 'done' }
  );

const ROOT: readonly string[] = Object.freeze([]);
/** Weft's stream waits for its consumer at the end of a step once more than this many events are queued. */
const HIGH_WATER_MARK = 64;

/**
 * The events of a chain of `length` nodes each adding 1 to `n`, made afresh (one clock read per step, as
 * Weft's synchronous steps take) and yielded in bursts as Weft's stream hands them over: at the end of the
 * first step that leaves more than {@link HIGH_WATER_MARK} queued. Node names and task ids are made
 * once per chain, as an engine that caches them would.
 */
export function chainEventBursts(length: number): () => AsyncGenerator<FloorEvent[]> {
  const names = Array.from({ length }, (_, i) => `n${i}`);
  const ids = names.map((name, i) => `${i}:${name}:0`);
  // A task's path in a root run, which is also a one-task step's task list.
  const alone = names.map((name) => Object.freeze([name]));
  let runs = 0;
  return async function* run() {
    const runId = `floor-${runs++}`;
    const begun = Date.now();
    let state = { n: 0 };
    let burst: FloorEvent[] = [
      { type: 'run-start', runId, ts: begun, path: ROOT, graph: 'chain', input: state },
    ];
    let stepStart = begun;
    for (let step = 0; step < length; step++) {
      const node = names[step] as string;
      const taskId = ids[step] as string;
      const path = alone[step] as readonly string[];
      burst.push({ type: 'step-start', runId, ts: stepStart, path: ROOT, step, tasks: path });
      burst.push({
        type: 'node-start',
        runId,
        ts: stepStart,
        path,
        step,
        node,
        taskId,
        input: state,
        attempt: 1,
      });
      const output = { n: state.n + 1 };
      state = { ...state, ...output };
      const now = Date.now();
      burst.push({
        type: 'node-end',
        runId,
        ts: now,
        path,
        step,
        node,
        taskId,
        output,
        durationMs: now - stepStart,
      });
      burst.push({
        type: 'step-end',
        runId,
        ts: now,
        path: ROOT,
        step,
        durationMs: now - stepStart,
        values: state,
      });
      stepStart = now;
      if (burst.length > HIGH_WATER_MARK) {
        yield burst;
        burst = [];
      }
    }
    const ended = Date.now();
    burst.push({
      type: 'run-end',
      runId,
      ts: ended,
      path: ROOT,
      graph: 'chain',
      output: state,
      steps: length,
      durationMs: ended - begun,
      status: 'done',
    });
    yield burst;
  };
}
