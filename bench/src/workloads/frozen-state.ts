// The cost of compose's development-mode state protection (`freezeState`: the state handed to nodes is
// deep-frozen with immer's freeze) against production mode (off, the default under NODE_ENV=production,
// which `pnpm bench` sets). Two graphs: a 1000-step counter loop (the per-step cost alone) and a 200-step
// transcript whose state grows by one message object per step (each step freezes the new list, walking
// its items). Weft only; the variants are timed interleaved so their ratio holds within one run.
import { type Counter, type Transcript, weftLoop, weftTranscript } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import { interleaved, ratio, type Variant } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

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
      { prefix: 'frozen state' },
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
