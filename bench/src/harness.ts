// Timing, A/B alternation, medians and heap accounting shared by every workload.
import { performance } from 'node:perf_hooks';
import { GCProfiler } from 'node:v8';

/** The three columns every workload compares. */
export type Engine = 'weft' | 'langgraph' | 'floor';

export const ENGINES: readonly Engine[] = ['weft', 'langgraph', 'floor'];

/** One side of a comparison: a batch of work and the check that its result is right. */
export interface Contender<TResult = unknown> {
  readonly engine: Engine;
  /** One timed sample (usually a batch of invokes). */
  readonly run: () => Promise<TResult>;
  /** Throws when the result is wrong, so a broken engine cannot look fast. */
  readonly check: (result: TResult) => void;
  /** One invoke, for the allocation pass when `run` is a batch (default: `run`). */
  readonly once?: () => Promise<unknown>;
}

/** The outcome of timing one contender. */
export interface Measurement {
  readonly engine: Engine;
  /** Median wall time of one sample, in milliseconds (NaN when the contender failed). */
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
  /** Bytes allocated by one invoke (`once`, else one sample), measured in a separate, untimed pass. */
  readonly allocatedBytes: number;
  /** Set when a run threw or its check failed. */
  readonly error?: string;
}

/** How many untimed warm-up samples and timed repetitions to take. */
export interface Repetitions {
  readonly warmup: number;
  readonly reps: number;
  /**
   * Untimed running (of `once`) after each forced GC, in milliseconds, before the timed sample: a full
   * GC throws away optimized code that embedded objects it collected, and the sample should time the
   * engine in its steady state, not V8 re-optimizing it. Default 0.
   */
  readonly rewarmMs?: number;
}

/** `globalThis.gc` exists when node runs with `--expose-gc`. */
export function forceGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function sample<TResult>(contender: Contender<TResult>, rewarmMs: number): Promise<number> {
  forceGc();
  if (rewarmMs > 0) {
    const once = contender.once ?? contender.run;
    const until = performance.now() + rewarmMs;
    do await once();
    while (performance.now() < until);
  }
  const start = performance.now();
  const result = await contender.run();
  const elapsed = performance.now() - start;
  contender.check(result);
  return elapsed;
}

/**
 * Bytes one run allocates: the growth of the used heap plus what every GC during the run freed
 * (a `GCProfiler` reports the heap before and after each collection).
 */
export async function allocatedBytes(run: () => Promise<unknown>): Promise<number> {
  forceGc();
  const profiler = new GCProfiler();
  profiler.start();
  const before = process.memoryUsage().heapUsed;
  await run();
  const after = process.memoryUsage().heapUsed;
  const report = profiler.stop();
  let freed = 0;
  for (const entry of report?.statistics ?? []) {
    freed += entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize;
  }
  return Math.max(0, after - before + freed);
}

/**
 * Times the contenders side by side: warm-up samples first, then `reps` rounds that run each contender
 * once in turn (A/B/C/A/B/C…), with a forced GC before every sample so one engine's garbage is not
 * collected on another's clock, then `rewarmMs` of untimed runs so the sample starts from optimized code.
 * `turn` is awaited before every sample (the engines' processes take turns, see `BenchContext.turn`). A contender that throws or fails its check is dropped and reported.
 */
export async function compare<TResult>(
  contenders: readonly Contender<TResult>[],
  repetitions: Repetitions,
  turn: () => Promise<void> = async () => undefined,
): Promise<Measurement[]> {
  const samples = new Map<Engine, number[]>(contenders.map((c) => [c.engine, []]));
  const errors = new Map<Engine, string>();
  const alive = () => contenders.filter((c) => !errors.has(c.engine));
  for (let round = 0; round < repetitions.warmup + repetitions.reps; round++) {
    for (const contender of alive()) {
      try {
        await turn();
        const elapsed = await sample(contender, repetitions.rewarmMs ?? 0);
        if (round >= repetitions.warmup) samples.get(contender.engine)!.push(elapsed);
      } catch (error) {
        errors.set(contender.engine, describe(error));
      }
    }
  }
  const measurements: Measurement[] = [];
  for (const contender of contenders) {
    const error = errors.get(contender.engine);
    const taken = samples.get(contender.engine)!;
    const allocated =
      error === undefined ? await allocatedBytes(contender.once ?? contender.run) : Number.NaN;
    measurements.push({
      engine: contender.engine,
      medianMs: error === undefined ? median(taken) : Number.NaN,
      samplesMs: taken,
      allocatedBytes: allocated,
      ...(error === undefined ? {} : { error }),
    });
  }
  return measurements;
}

/**
 * Heap in use after forced GCs, in bytes: collects until the used heap stops shrinking (at most 10
 * times), so lazily released memory (flushed bytecode, finalizers) does not show up as a change.
 */
export function retainedHeap(): number {
  let used = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i++) {
    forceGc();
    const now = process.memoryUsage().heapUsed;
    if (used - now < 16 * 1024) return now;
    used = now;
  }
  return used;
}

/** Repeats an async body `count` times (the unit most workloads time). */
export async function times<TResult>(count: number, body: () => Promise<TResult>): Promise<TResult> {
  let last: TResult | undefined;
  for (let i = 0; i < count; i++) last = await body();
  return last as TResult;
}

/** Throws with a readable message unless `actual` equals `expected` (JSON equality). */
export function expectEqual(what: string, actual: unknown, expected: unknown): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e.slice(0, 200)}, got ${String(a).slice(0, 200)}`);
}
