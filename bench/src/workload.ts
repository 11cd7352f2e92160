// What a workload is, and the settings one `pnpm bench` run passes to each.
import { type Contender, compare, ENGINES, type Engine, type Repetitions, times } from './harness.ts';
import { measurementRow, type Row, type RowSpec } from './table.ts';

/** Settings of this run. */
export interface BenchContext {
  /** `--quick`: fewer repetitions and smaller sizes (what CI runs). */
  readonly quick: boolean;
  readonly repetitions: Repetitions;
  /** Progress output (stderr), so stdout carries only the table. */
  readonly log: (message: string) => void;
  /**
   * The engines this process measures. `pnpm bench` runs each engine in its own process (LangGraph's
   * first run switches on AsyncLocalStorage for the whole process, which slows every promise after it,
   * Weft's and the floor's included); a workload measures only these and leaves the others' cells null.
   */
  readonly engines: readonly Engine[];
  /**
   * Waits for this process's turn: called before every timed sample, so the engines' processes take
   * turns sample by sample (A/B/C/A/B/C…) and never run at the same time.
   */
  readonly turn: () => Promise<void>;
}

/** Whether this process measures `engine`. */
export function measures(context: BenchContext, engine: Engine): boolean {
  return context.engines.includes(engine);
}

/** One family of measurements, producing one or more table rows. */
export interface Workload {
  /** What `--only` matches. */
  readonly name: string;
  run(context: BenchContext): Promise<Row[]>;
}

/** `full` in a full run, `quick` with `--quick`. */
export function pick<T>(context: BenchContext, full: T, quick: T): T {
  return context.quick ? quick : full;
}

/** A row's spec plus what each engine runs (a missing engine is shown as "–" or as `fixed`). */
export interface ComparisonSpec<TResult> extends RowSpec {
  readonly runs: Partial<Record<Engine, () => Promise<TResult>>>;
  /** One invoke per engine, for the allocation (heap) column when a run is a batch. */
  readonly once?: Partial<Record<Engine, () => Promise<unknown>>>;
  readonly check: (result: TResult) => void;
}

/** Times the engines of one comparison side by side (see `compare`) and turns the result into a row. */
export async function compareRow<TResult>(
  context: BenchContext,
  spec: ComparisonSpec<TResult>,
): Promise<Row> {
  context.log(`  ${spec.workload}`);
  const contenders: Contender<TResult>[] = [];
  for (const engine of context.engines) {
    const run = spec.runs[engine];
    const once = spec.once?.[engine];
    if (run) contenders.push({ engine, run, check: spec.check, ...(once ? { once } : {}) });
  }
  const fixed = Object.fromEntries(
    Object.entries(spec.fixed ?? {}).filter(([engine]) => measures(context, engine as Engine)),
  );
  return measurementRow({ ...spec, fixed }, await compare(contenders, context.repetitions, context.turn));
}

/** Each engine's single invoke repeated `count` times: the batch a sample times. */
export function batched<TResult>(
  count: number,
  once: Partial<Record<Engine, () => Promise<TResult>>>,
): Partial<Record<Engine, () => Promise<TResult>>> {
  const runs: Partial<Record<Engine, () => Promise<TResult>>> = {};
  for (const engine of ENGINES) {
    const invoke = once[engine];
    if (invoke) runs[engine] = () => times(count, invoke);
  }
  return runs;
}
