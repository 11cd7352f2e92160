// Variants of one Weft workload timed interleaved (A B C, B C A, C A B, …), so that the load of a shared
// machine falls on all of them alike and their ratios hold within one run. Weft only.
import { expectEqual, rotated, timeBoxed, times } from './harness.ts';
import { measurementRow, type Row } from './table.ts';
import type { BenchContext } from './workload.ts';

/**
 * One variant: its label and one invoke. By default the invoke resolves with the final counter state
 * (`{ n }`, checked against the spec's `expectedN`); a variant may check its own result instead, and with
 * `steps` its row is in µs per step rather than ms per invoke.
 */
export interface Variant {
  readonly label: string;
  readonly once: () => Promise<unknown>;
  readonly check?: (state: unknown) => void;
  readonly steps?: number;
}

/** What the rows are called and what each invoke must end with. */
export interface InterleavedSpec {
  /** First words of each row, e.g. `otel`. */
  readonly prefix: string;
  /** The workload's size as shown, e.g. `chain 100` (rows without it show only prefix and label). */
  readonly size?: string;
  /** The final `n` every invoke of a variant without its own `check` must reach. */
  readonly expectedN?: number;
}

/** `row / base` of the Weft cells, or `undefined` when either has no number. */
export function share(row: Row, base: Row): number | undefined {
  return typeof row.weft === 'number' && typeof base.weft === 'number' ? row.weft / base.weft : undefined;
}

/** `row / base` of the Weft cells, as `1.23×`. */
export function ratio(row: Row, base: Row): string {
  const part = share(row, base);
  return part === undefined ? '?' : `${part.toFixed(2)}×`;
}

/**
 * Times the variants interleaved, in rounds of rotating order; a sample repeats a batch of `invokes`
 * invokes until `minSampleMs` has passed (the mean batch is its time). Returns one row per variant.
 */
export async function interleaved(
  context: BenchContext,
  spec: InterleavedSpec,
  variants: readonly Variant[],
  invokes: number,
): Promise<Row[]> {
  const samples = variants.map(() => [] as number[]);
  const failures = variants.map(() => [] as string[]);
  const reps = context.repetitions.reps * 2;
  for (const variant of variants) await times(invokes, variant.once);
  const order = variants.map((_, i) => i);
  for (let rep = 0; rep < reps; rep++) {
    for (const i of rotated(order, rep)) {
      const variant = variants[i] as Variant;
      await context.turn();
      // A sample repeats the batch until minSampleMs has passed; its time is that of one batch.
      const timed = await timeBoxed(() => times(invokes, variant.once), context.repetitions.minSampleMs ?? 0);
      (samples[i] as number[]).push(timed.msPerRun);
      try {
        for (const state of timed.results) {
          if (variant.check) variant.check(state);
          else expectEqual('final n', (state as { n: number }).n, spec.expectedN);
        }
      } catch (error) {
        (failures[i] as string[]).push(String(error));
      }
    }
  }
  return variants.map((variant, i) => {
    const sorted = [...(samples[i] as number[])].sort((x, y) => x - y);
    const medianMs = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    const error = (failures[i] as string[])[0];
    return measurementRow(
      {
        workload:
          spec.size === undefined
            ? `${spec.prefix} ${variant.label}`
            : `${spec.prefix} ${variant.label}: ${spec.size} × ${invokes}`,
        unit: variant.steps === undefined ? 'ms/invoke' : 'µs/step',
        scale:
          variant.steps === undefined
            ? (ms: number) => ms / invokes
            : (ms: number) => (ms * 1000) / (invokes * (variant.steps as number)),
        notes: [],
      },
      [
        {
          engine: 'weft',
          medianMs,
          samplesMs: samples[i] as number[],
          allocatedBytes: Number.NaN,
          ...(error ? { error } : {}),
        },
      ],
    );
  });
}
