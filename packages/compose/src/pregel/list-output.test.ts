import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer, sumReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';

const State = z.object({
  log: z.array(z.string()).default([]),
  total: z.number().default(0),
  last: z.string().default(''),
});
const reducers = { log: appendReducer, total: sumReducer };

describe('a state graph node returning a list', () => {
  it('applies updates in order through the reducers; a last-value key keeps the last item', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('many', () => [
        { log: 'one', total: 1, last: 'one' },
        null,
        { log: ['two', 'three'], total: 2, last: 'two' },
      ])
      .addEdge(START, 'many')
      .addEdge('many', END)
      .compile();
    expect(await app.invoke({})).toEqual({ log: ['one', 'two', 'three'], total: 3, last: 'two' });
  });

  it('takes Commands among the items: their updates in place, their gotos added up', async () => {
    const visits: string[] = [];
    const app = new StateGraph(State, { reducers })
      .addNode('left', () => {
        visits.push('left');
        return { log: 'left' };
      })
      .addNode('right', () => {
        visits.push('right');
        return { log: 'right' };
      })
      .addNode(
        'route',
        async () => [
          new Command({ update: { log: 'route' }, goto: 'left' }),
          { total: 5 },
          new Command({ goto: ['right'] }),
        ],
        { goto: ['left', 'right'] },
      )
      .addEdge(START, 'route')
      .addEdge('left', END)
      .addEdge('right', END)
      .compile();
    expect(await app.invoke({})).toEqual({ log: ['route', 'left', 'right'], total: 5, last: '' });
    expect(visits.sort()).toEqual(['left', 'right']);
  });

  it('streams the list’s writes as the node’s update', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('many', () => [{ log: 'a' }, { total: 2 }])
      .addEdge(START, 'many')
      .addEdge('many', END)
      .compile();
    const parts: unknown[] = [];
    for await (const part of app.stream({}, { mode: 'updates' })) parts.push(part);
    expect(parts).toEqual([{ node: 'many', update: { log: 'a', total: 2 }, path: [] }]);
  });

  it('checks each item against the node’s output schema', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('many', () => [{ total: 1 }, { total: -1 }], {
        output: z.object({ total: z.number().positive() }),
      })
      .addEdge(START, 'many')
      .addEdge('many', END)
      .compile();
    await expect(app.invoke({})).rejects.toThrow(/node "many" output failed its schema: total/);
  });

  it('names the node and the key for an unknown key, and the item for a value that is not an update', async () => {
    const unknownKey = new StateGraph(State, { reducers })
      .addNode('bad', () => [{ log: 'x' }, { nope: 1 } as never])
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .compile();
    await expect(unknownKey.invoke({})).rejects.toThrow(/node "bad" wrote "nope", which is not a key/);
    const notAnUpdate = new StateGraph(State, { reducers })
      .addNode('bad', () => [{ log: 'x' }, 42 as never])
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .compile();
    await expect(notAnUpdate.invoke({})).rejects.toMatchObject({
      code: 'INVALID_UPDATE',
      message: expect.stringContaining('node "bad" returned a list whose item 1 is a number'),
    });
  });

  it('leaves a dataflow node’s array output alone (an array is a value there)', async () => {
    const { Graph } = await import('../graph/graph.js');
    const app = new Graph<number, number[]>()
      .addNode('pair', (n: number) => [n, n])
      .addEdge(START, 'pair')
      .addEdge('pair', END)
      .compile();
    expect(await app.invoke(2)).toEqual([2, 2]);
  });
});
