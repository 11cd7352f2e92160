import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Graph } from '../graph/graph.js';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer, sumReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';
import { applyStateWrites } from './apply.js';
import type { CompiledState } from './compiled-state.js';

const WIDTH = 6;
const State = z.object({
  log: z.array(z.string()).default([]),
  total: z.number().default(0),
  items: z.array(z.number()).default([]),
});
const reducers = { log: appendReducer, total: sumReducer };

/** Waits `count` macrotasks: a random delay that reorders finishes without real time. */
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

type Delays = (node: string, detail?: number) => number;

/**
 * START fans out to WIDTH workers; they join into `gather`, which maps `items` over `square` with
 * Sends; squares fan back in to `done`. Every node appends to `log` and adds to `total`.
 */
function fanOutFanIn(delay: Delays, mode: 'pregel' | 'dag') {
  const workers = Array.from({ length: WIDTH }, (_, i) => `w${i}`);
  let graph = new StateGraph(State, { reducers }) as StateGraph<typeof State, typeof reducers, string>;
  for (const [i, name] of workers.entries()) {
    graph = graph
      .addNode(name, async (s) => {
        await turns(delay(name));
        return { log: `${name}:${s.log.length}`, total: i + 1 };
      })
      .addEdge(START, name);
  }
  graph = graph.addNode('gather', async (s) => {
    await turns(delay('gather'));
    return { log: `gather:${s.log.join('|')}`, total: 100 };
  });
  graph = graph.addEdge(workers, 'gather');
  if (mode === 'dag') return graph.addEdge('gather', END).compile({ mode });
  return graph
    .addNode('square', async (n: number) => {
      await turns(delay('square', n));
      return { log: `sq${n * n}`, total: n * n };
    })
    .addNode('done', (s) => ({ log: `done:${s.total}` }))
    .addConditionalEdges('gather', (s) => s.items.map((n) => new Send('square', n)))
    .addEdge('square', 'done')
    .addEdge('done', END)
    .compile({ mode });
}

const delaysArbitrary = fc.dictionary(
  fc.constantFrom(
    ...Array.from({ length: WIDTH }, (_, i) => `w${i}`),
    'gather',
    'square0',
    'square1',
    'square2',
    'square3',
  ),
  fc.integer({ min: 0, max: 4 }),
);
const toDelay =
  (table: Record<string, number>): Delays =>
  (node, detail) =>
    table[detail === undefined ? node : `${node}${detail}`] ?? 0;

describe('determinism', () => {
  const input = { items: [0, 1, 2, 3] };

  it.each(['pregel', 'dag'] as const)(
    '%s: random per-node delays never change the final state of a fan-out/fan-in run',
    async (mode) => {
      const reference = await fanOutFanIn(() => 0, mode).invoke(input);
      expect(reference.log.length).toBeGreaterThan(WIDTH);
      await fc.assert(
        fc.asyncProperty(delaysArbitrary, async (table) => {
          const result = await fanOutFanIn(toDelay(table), mode).invoke(input);
          expect(result).toEqual(reference);
        }),
        { numRuns: 40 },
      );
    },
  );

  it('random delays never change a dataflow fan-in', async () => {
    const build = (delay: Delays) =>
      new Graph<number, string>()
        .addNode('a', async (n: number) => {
          await turns(delay('a'));
          return `a${n}`;
        })
        .addNode('b', async (n: number) => {
          await turns(delay('b'));
          return `b${n}`;
        })
        .addNode('c', async (n: number) => {
          await turns(delay('c'));
          return `c${n}`;
        })
        .addNode('join', (parts: string[]) => parts.join(','), { merge: (inputs) => inputs })
        .addEdge(START, 'a')
        .addEdge(START, 'b')
        .addEdge(START, 'c')
        .addEdge(['a', 'b', 'c'], 'join')
        .addEdge('join', END)
        .compile();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 5 })),
        async (table) => {
          expect(await build(toDelay(table)).invoke(1)).toBe('a1,b1,c1');
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('reducers are applied deterministically', () => {
  const state: CompiledState = {
    keys: ['log', 'total'],
    keySet: new Set(['log', 'total']),
    reducers,
    defaults: {},
    checks: undefined,
  };
  const update = fc.record(
    {
      log: fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 })),
      total: fc.integer({ min: -50, max: 50 }),
    },
    { requiredKeys: [] },
  );

  it('applying a step equals applying its writes one task at a time, in task order', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 8 }), (outputs) => {
        const names = outputs.map((_, i) => `t${i}`);
        const together = applyStateWrites(state, {}, names, outputs).values;
        let oneByOne: Record<string, unknown> = {};
        for (const [i, output] of outputs.entries()) {
          oneByOne = applyStateWrites(state, oneByOne, [names[i] as string], [output]).values;
        }
        expect(together).toEqual(oneByOne);
        const expectedLog = outputs.flatMap((o) =>
          o.log === undefined ? [] : Array.isArray(o.log) ? o.log : [o.log],
        );
        if (outputs.some((o) => o.log !== undefined)) expect(together.log).toEqual(expectedLog);
      }),
    );
  });

  it('the same writes give the same state every time', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 8 }), (outputs) => {
        const names = outputs.map((_, i) => `t${i}`);
        expect(applyStateWrites(state, {}, names, outputs).values).toEqual(
          applyStateWrites(state, {}, names, structuredClone(outputs)).values,
        );
      }),
    );
  });
});
