// The cost of checking node updates against the state schema (compose's default), on and off, on the
// 100-node chain: every node writes one number key, so each step pays one zod parse. Weft only; the two
// variants are timed interleaved.
import { weftChain } from '../graphs/weft-graphs.ts';
import { interleaved, ratio } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const NODES = 100;

export const updateChecksWorkload: Workload = {
  name: 'update-checks',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const checked = weftChain(NODES);
    const unchecked = weftChain(NODES, { checkUpdates: false });
    const invokes = pick(context, 200, 5);
    context.log(`  update checks: chain ${NODES} × ${invokes}, on and off interleaved`);
    const [on, off] = (await interleaved(
      context,
      { prefix: 'update checks', size: `chain ${NODES}`, expectedN: NODES },
      [
        { label: 'on (default)', once: () => checked.invoke({ n: 0 }) },
        { label: 'off', once: () => unchecked.invoke({ n: 0 }) },
      ],
      invokes,
    )) as [Row, Row];
    return [
      { ...on, heap: 'samples interleaved; heap not measured' },
      { ...off, heap: '', notes: [`update checks: on / off = ${ratio(on, off)}`] },
    ];
  },
};
