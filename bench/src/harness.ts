// Timing, A/B alternation, medians and heap accounting shared by every workload.
import { PerformanceObserver, performance } from 'node:perf_hooks';
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
  /** Median share of a timed sample's wall time spent in GC pauses (0–1; NaN when unknown). */
  readonly gcShare?: number;
  /**
   * Median minor page faults of the process per run (`run`, one batch) in a timed sample: a first touch
   * of a fresh page, which V8 pays for every page it maps (old space after promotion, large objects).
   */
  readonly pageFaultsPerRun?: number;
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
  /**
   * Each timed sample repeats the contender's `run` until at least this many milliseconds have passed
   * and records the mean time of one `run` (full runs: 1000, so a load spike of a few hundred
   * milliseconds cannot decide a sample). Default 0: one `run` per sample.
   */
  readonly minSampleMs?: number;
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

/**
 * GC pauses, from the `gc` entries of a `PerformanceObserver` (one per collection, with its duration):
 * chosen over `--expose-gc` + `eventLoopUtilization` because it names the pauses themselves and works
 * in any process. Entries arrive a tick late, either through the callback or `takeRecords()`.
 */
const gcEntries: Array<{ readonly startTime: number; readonly duration: number }> = [];
const gcObserver = new PerformanceObserver((list) => {
  gcEntries.push(...list.getEntries());
});
gcObserver.observe({ entryTypes: ['gc'] });

/** Milliseconds of GC pauses that started in [from, to]; forgets every entry seen so far. */
export async function gcPausesMs(from: number, to: number): Promise<number> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  gcEntries.push(...gcObserver.takeRecords());
  let total = 0;
  for (const entry of gcEntries) {
    if (entry.startTime >= from && entry.startTime <= to) total += entry.duration;
  }
  gcEntries.length = 0;
  return total;
}

interface Sample {
  readonly ms: number;
  readonly gcShare: number;
  readonly pageFaultsPerRun: number;
}

async function sample<TResult>(contender: Contender<TResult>, repetitions: Repetitions): Promise<Sample> {
  forceGc();
  const rewarmMs = repetitions.rewarmMs ?? 0;
  if (rewarmMs > 0) {
    const once = contender.once ?? contender.run;
    const until = performance.now() + rewarmMs;
    do await once();
    while (performance.now() < until);
  }
  await gcPausesMs(0, 0);
  const faults = process.resourceUsage().minorPageFault;
  const start = performance.now();
  const timed = await timeBoxed(contender.run, repetitions.minSampleMs ?? 0);
  const end = performance.now();
  const pageFaultsPerRun = (process.resourceUsage().minorPageFault - faults) / timed.runs;
  const gcShare = (await gcPausesMs(start, end)) / (end - start);
  for (const result of timed.results) contender.check(result);
  return { ms: timed.msPerRun, gcShare, pageFaultsPerRun };
}

/** The results of a time-boxed sample and the mean wall time of one run in it. */
export interface TimeBoxed<TResult> {
  readonly msPerRun: number;
  readonly runs: number;
  readonly results: readonly TResult[];
}

/**
 * Runs `run` until at least `minMs` have passed (at least once) and returns the mean time of one run.
 * Results are kept (not checked) so a caller can check every one of them off the clock.
 */
export async function timeBoxed<TResult>(
  run: () => Promise<TResult>,
  minMs: number,
): Promise<TimeBoxed<TResult>> {
  const results: TResult[] = [];
  const start = performance.now();
  let elapsed = 0;
  do {
    results.push(await run());
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return { msPerRun: elapsed / results.length, runs: results.length, results };
}

/** The order of round `round`: the list rotated by `round` (A B C, B C A, C A B, …). */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const shift = items.length === 0 ? 0 : round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
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
 * once in a rotating order (A B C, B C A, C A B, …, so no contender always follows the same one), with a
 * forced GC before every sample so one engine's garbage is not collected on another's clock, then
 * `rewarmMs` of untimed runs so the sample starts from optimized code; a sample lasts at least
 * `minSampleMs`. `turn` is awaited before every sample (the engines' processes take turns, see
 * `BenchContext.turn`). A contender that throws or fails its check is dropped and reported.
 */
export async function compare<TResult>(
  contenders: readonly Contender<TResult>[],
  repetitions: Repetitions,
  turn: () => Promise<void> = async () => undefined,
): Promise<Measurement[]> {
  const samples = new Map<Engine, number[]>(contenders.map((c) => [c.engine, []]));
  const gcShares = new Map<Engine, number[]>(contenders.map((c) => [c.engine, []]));
  const pageFaults = new Map<Engine, number[]>(contenders.map((c) => [c.engine, []]));
  const errors = new Map<Engine, string>();
  const alive = () => contenders.filter((c) => !errors.has(c.engine));
  for (let round = 0; round < repetitions.warmup + repetitions.reps; round++) {
    for (const contender of rotated(alive(), round)) {
      try {
        await turn();
        const taken = await sample(contender, repetitions);
        if (round >= repetitions.warmup) {
          samples.get(contender.engine)!.push(taken.ms);
          gcShares.get(contender.engine)!.push(taken.gcShare);
          pageFaults.get(contender.engine)!.push(taken.pageFaultsPerRun);
        }
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
      gcShare: median(gcShares.get(contender.engine)!),
      pageFaultsPerRun: median(pageFaults.get(contender.engine)!),
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
