// The cost of compose's development-mode state protection (`freezeState`: the state handed to nodes is
// deep-frozen with immer's freeze) against production mode (off, the default under NODE_ENV=production,
// which `pnpm bench` sets). Two graphs: a 1000-step counter loop (the per-step cost alone) and a 200-step
// transcript whose state grows by one message object per step (each step freezes the new list, walking
// its items). Weft only; the variants are timed interleaved so their ratio holds within one run.
import { type Counter, type Transcript, weftLoop, weftTranscript } from '../graphs/weft-graphs.ts';
import { expectEqual, times } from '../harness.ts';
import { measurementRow, type Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

interface Variant {
  readonly label: string;
  readonly steps: number;
  readonly once: () => Promise<unknown>;
  readonly check: (state: unknown) => void;
}

async function interleaved(
  context: BenchContext,
  variants: readonly Variant[],
  invokes: number,
): Promise<Row[]> {
  const samples = variants.map(() => [] as number[]);
  const failures = variants.map(() => [] as string[]);
  for (const variant of variants) await times(invokes, variant.once);
  for (let rep = 0; rep < context.repetitions.reps * 3; rep++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (rep + k) % variants.length;
      const variant = variants[i] as Variant;
      await context.turn();
      const started = performance.now();
      const state = await times(invokes, variant.once);
      (samples[i] as number[]).push(performance.now() - started);
      try {
        variant.check(state);
      } catch (error) {
        (failures[i] as string[]).push(String(error));
      }
    }
  }
  return variants.map((variant, i) => {
    const sorted = [...(samples[i] as number[])].sort((x, y) => x - y);
    const error = (failures[i] as string[])[0];
    return measurementRow(
      {
        workload: `frozen state ${variant.label}`,
        unit: 'µs/step',
        scale: (ms: number) => (ms * 1000) / (invokes * variant.steps),
        notes: [],
      },
      [
        {
          engine: 'weft',
          medianMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
          samplesMs: samples[i] as number[],
          allocatedBytes: Number.NaN,
          ...(error ? { error } : {}),
        },
      ],
    );
  });
}

function ratio(on: Row, off: Row): string {
  return typeof on.weft === 'number' && typeof off.weft === 'number'
    ? `${(on.weft / off.weft).toFixed(2)}×`
    : '?';
}

export const frozenStateWorkload: Workload = {
  name: 'frozen-state',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const loopSteps = 1000;
    const transcriptSteps = pick(context, 200, 50);
    const invokes = pick(context, 20, 3);
    const loop = (freezeState: boolean): Variant => {
      const app = weftLoop(loopSteps / 2, { freezeState });
      return {
        label: `${freezeState ? 'on ' : 'off'}: loop ${loopSteps} steps`,
        steps: loopSteps,
        once: () => app.invoke({ n: 0 }),
        check: (state) => expectEqual('final n', (state as Counter).n, loopSteps / 2),
      };
    };
    const transcript = (freezeState: boolean): Variant => {
      const app = weftTranscript(transcriptSteps, { freezeState });
      return {
        label: `${freezeState ? 'on ' : 'off'}: transcript ${transcriptSteps} steps`,
        steps: transcriptSteps,
        once: () => app.invoke({ messages: [], i: 0 }),
        check: (state) => expectEqual('messages', (state as Transcript).messages.length, transcriptSteps),
      };
    };
    context.log(`  frozen state: loop and transcript × ${invokes}, freezeState off/on interleaved`);
    const [loopOff, loopOn, transcriptOff, transcriptOn] = (await interleaved(
      context,
      [loop(false), loop(true), transcript(false), transcript(true)],
      invokes,
    )) as [Row, Row, Row, Row];
    return [
      { ...loopOff, heap: 'samples interleaved; heap not measured' },
      { ...loopOn, heap: '', notes: [`frozen state: loop on / off = ${ratio(loopOn, loopOff)}`] },
      { ...transcriptOff, heap: '' },
      {
        ...transcriptOn,
        heap: '',
        notes: [`frozen state: transcript on / off = ${ratio(transcriptOn, transcriptOff)}`],
      },
    ];
  },
};
