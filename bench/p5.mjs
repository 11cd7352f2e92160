import { StateGraph, START, END } from '@weft/compose';
import { z } from 'zod';
const N = 100;
let g = new StateGraph(z.object({ n: z.number() }));
for (let i = 0; i < N; i++) g = g.addNode(`n${i}`, (s) => ({ n: s.n + 1 }));
g = g.addEdge(START, 'n0'); for (let i = 1; i < N; i++) g = g.addEdge(`n${i-1}`, `n${i}`);
const app = g.addEdge(`n${N-1}`, END).compile({ maxSteps: 100000 });
const { StateGraph: LG, Annotation, START: S, END: E } = await import('@langchain/langgraph');
const St = Annotation.Root({ n: Annotation() });
let lgb = new LG(St);
for (let i = 0; i < N; i++) lgb = lgb.addNode(`n${i}`, (s) => ({ n: s.n + 1 }));
lgb = lgb.addEdge(S, 'n0'); for (let i = 1; i < N; i++) lgb = lgb.addEdge(`n${i-1}`, `n${i}`);
const lg = lgb.addEdge(`n${N-1}`, E).compile();
async function weftSample() { const t = performance.now(); for (let i = 0; i < 200; i++) await app.invoke({ n: 0 }); return (performance.now() - t) / 200 / N * 1000; }
const mode = process.argv[2];
for (let r = 0; r < 5; r++) {
  if (mode === 'lg') { for (let i = 0; i < 20; i++) await lg.invoke({ n: 0 }, { recursionLimit: 100000 }); }
  if (mode !== 'nogc') globalThis.gc?.();
  console.log(mode, (await weftSample()).toFixed(3), 'µs/step');
}
