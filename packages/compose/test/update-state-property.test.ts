import fc from 'fast-check';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { appendReducer, END, START, StateGraph, sumReducer } from '../src/index.js';

/** Per key: a default or not, a reducer (sum / append) or last-value. */
const keySpec = fc.record({ kind: fc.constantFrom('last', 'sum', 'append'), withDefault: fc.boolean() });

it('updateState with a subset of keys never changes the keys not given', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(keySpec, { minLength: 2, maxLength: 6 }),
      fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 6, maxLength: 6 }),
      fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      async (specs, numbers, picked) => {
        const shape: Record<string, z.ZodType> = {};
        const reducers: Record<string, typeof sumReducer | typeof appendReducer> = {};
        specs.forEach((spec, i) => {
          if (spec.kind === 'append')
            shape[`k${i}`] = spec.withDefault
              ? z.array(z.number()).default([i])
              : z.array(z.number()).optional();
          else shape[`k${i}`] = spec.withDefault ? z.number().default(i) : z.number().optional();
          if (spec.kind === 'sum') reducers[`k${i}`] = sumReducer;
          if (spec.kind === 'append') reducers[`k${i}`] = appendReducer;
        });
        const write = Object.fromEntries(specs.map((_, i) => [`k${i}`, numbers[i] as number]));
        const app = new StateGraph(z.object(shape), { reducers })
          .addNode('write', () => write)
          .addEdge(START, 'write')
          .addEdge('write', END)
          .compile({ checkpointer: new MemoryCheckpointer() });
        await app.invoke({}, { threadId: 't' });
        const before = (await app.getState('t'))?.values as Record<string, unknown>;
        const given = specs.map((_, i) => `k${i}`).filter((_, i) => picked[i]);
        await app.updateState('t', Object.fromEntries(given.map((key) => [key, 100])));
        const after = (await app.getState('t'))?.values as Record<string, unknown>;
        for (const key of Object.keys(before))
          if (!given.includes(key)) expect(after[key]).toEqual(before[key]);
      },
    ),
    { numRuns: 60 },
  );
});
