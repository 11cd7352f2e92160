import { weftChain, weftSend } from '/work/wt/perf/bench/src/graphs/weft-graphs.ts';

const which = process.argv[2] ?? 'chain';
const sizes = (process.argv[3] ?? '100,1000,10000,100000').split(',').map(Number);
for (const size of sizes) {
  let t0 = performance.now();
  const app = which === 'chain' ? weftChain(size) : weftSend(size);
  const compileMs = performance.now() - t0;
  const input = which === 'chain' ? { n: 0 } : { total: 0 };
  await (app as { invoke(i: unknown): Promise<unknown> }).invoke(input);
  const invokes = Math.max(1, Math.round(200000 / size));
  t0 = performance.now();
  for (let i = 0; i < invokes; i++) await (app as { invoke(i: unknown): Promise<unknown> }).invoke(input);
  const ms = performance.now() - t0;
  console.log(
    which,
    size,
    'compile',
    compileMs.toFixed(1),
    'ms; per unit',
    ((ms * 1000) / (invokes * size)).toFixed(3),
    'µs',
  );
}
