import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StepLimitError } from '../errors/step-limit-error.js';
import { WriteConflictError } from '../errors/write-conflict-error.js';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer, sumReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';

const LogState = z.object({
  x: z.number().default(0),
  flag: z.boolean().default(false),
  log: z.array(z.string()).default([]),
  total: z.number().default(0),
});
const reducers = { log: appendReducer, total: sumReducer };

/** Resolves after `turns` macrotasks: lets later-declared tasks finish first, without timing. */
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('superstep semantics', () => {
  it('gives every task of a step the state as of the step’s start', async () => {
    const seen: Record<string, number> = {};
    const app = new StateGraph(LogState, { reducers })
      .addNode('writer', () => ({ x: 10 }))
      .addNode('reader', async (s) => {
        await turns(3);
        seen.reader = s.x;
        return { log: `reader saw ${s.x}` };
      })
      .addNode('after', (s) => {
        seen.after = s.x;
        return {};
      })
      .addEdge(START, 'writer')
      .addEdge(START, 'reader')
      .addEdge('reader', 'after')
      .addEdge('writer', END)
      .addEdge('after', END)
      .compile();
    const final = await app.invoke({ x: 1 });
    expect(seen).toEqual({ reader: 1, after: 10 });
    expect(final).toMatchObject({ x: 10, log: ['reader saw 1'] });
  });

  it('lets a conditional edge see the state including its source node’s write (and its siblings’)', async () => {
    const routed: boolean[] = [];
    const app = new StateGraph(LogState, { reducers })
      .addNode('set', () => ({ flag: true }))
      .addNode('sibling', () => ({ x: 7 }))
      .addNode('yes', (s) => ({ log: `yes ${s.x}` }))
      .addNode('no', () => ({ log: 'no' }))
      .addEdge(START, 'set')
      .addEdge(START, 'sibling')
      .addEdge('sibling', END)
      .addConditionalEdges(
        'set',
        (s) => {
          routed.push(s.flag);
          return s.flag && s.x === 7 ? 'yes' : 'no';
        },
        ['yes', 'no'],
      )
      .addEdge('yes', END)
      .addEdge('no', END)
      .compile();
    expect((await app.invoke({})).log).toEqual(['yes 7']);
    expect(routed).toEqual([true]);
  });

  it('loops over a back edge and ends when nothing is triggered', async () => {
    let calls = 0;
    const app = new StateGraph(LogState, { reducers })
      .addNode('inc', (s) => {
        calls++;
        return { x: s.x + 1 };
      })
      .addEdge(START, 'inc')
      .addConditionalEdges('inc', (s) => (s.x < 5 ? 'inc' : []))
      .compile();
    expect((await app.invoke({})).x).toBe(5);
    expect(calls).toBe(5);
  });

  it('runs one task per triggered node even when several predecessors trigger it in one step', async () => {
    let runs = 0;
    const app = new StateGraph(LogState, { reducers })
      .addNode('a', () => ({}))
      .addNode('b', () => ({}))
      .addNode('c', () => ({ total: ++runs }))
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge('a', 'c')
      .addEdge('b', 'c')
      .addEdge('c', END)
      .compile();
    expect((await app.invoke({})).total).toBe(1);
  });

  it('makes a join target wait for all its sources across steps, once', async () => {
    const order: string[] = [];
    const node = (name: string) => () => {
      order.push(name);
      return { log: name };
    };
    const build = (join: boolean) => {
      const graph = new StateGraph(LogState, { reducers })
        .addNode('fast', node('fast'))
        .addNode('slow1', node('slow1'))
        .addNode('slow2', node('slow2'))
        .addNode('join', node('join'))
        .addEdge(START, 'fast')
        .addEdge(START, 'slow1')
        .addEdge('slow1', 'slow2')
        .addEdge('join', END);
      return (
        join
          ? graph.addEdge(['fast', 'slow2'], 'join')
          : graph.addEdge('fast', 'join').addEdge('slow2', 'join')
      ).compile();
    };
    expect((await build(true).invoke({})).log).toEqual(['fast', 'slow1', 'slow2', 'join']);
    expect(order).toEqual(['fast', 'slow1', 'slow2', 'join']);
    order.length = 0;
    // Without the join, "join" runs once per predecessor (a step after "fast", then after "slow2").
    expect((await build(false).invoke({})).log).toEqual(['fast', 'slow1', 'slow2', 'join', 'join']);
    expect(order).toEqual(['fast', 'slow1', 'slow2', 'join', 'join']);
  });

  it('fires a join again each time all of its sources have run again', async () => {
    const app = new StateGraph(LogState, { reducers })
      .addNode('a', () => ({ log: 'a' }))
      .addNode('b', () => ({ log: 'b' }))
      .addNode('j', (s) => ({ x: s.x + 1, log: 'j' }))
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(['a', 'b'], 'j')
      .addConditionalEdges('j', (s) => (s.x < 2 ? ['a', 'b'] : END))
      .compile();
    expect((await app.invoke({})).log).toEqual(['a', 'b', 'j', 'a', 'b', 'j']);
  });

  it('holds a deferred node until nothing else is pending', async () => {
    const build = (defer: boolean) =>
      new StateGraph(LogState, { reducers })
        .addNode('start', () => ({ log: 'start' }))
        .addNode('short', () => ({ log: 'short' }))
        .addNode('long1', () => ({ log: 'long1' }))
        .addNode('long2', () => ({ log: 'long2' }))
        .addNode('summary', (s) => ({ log: `summary of ${s.log.length}` }), { defer })
        .addEdge(START, 'start')
        .addEdge('start', 'short')
        .addEdge('start', 'long1')
        .addEdge('long1', 'long2')
        .addEdge('short', 'summary')
        .addEdge('long2', 'summary')
        .addEdge('summary', END)
        .compile();
    expect((await build(false).invoke({})).log).toEqual([
      'start',
      'short',
      'long1',
      'long2',
      'summary of 3',
      'summary of 5',
    ]);
    expect((await build(true).invoke({})).log).toEqual(['start', 'short', 'long1', 'long2', 'summary of 4']);
  });

  it('applies a Command’s update and goes where it says, besides static edges', async () => {
    // Goto targets are typed against the nodes declared so far, so they come first.
    const app = new StateGraph(LogState, { reducers })
      .addNode('always', () => ({ log: 'always' }))
      .addNode('big', (s) => ({ log: `big ${s.flag}` }))
      .addNode('small', () => ({ log: 'small' }))
      .addNode(
        'route',
        (s) => new Command({ update: { flag: true, log: 'route' }, goto: s.x > 0 ? 'big' : 'small' }),
        { goto: ['big', 'small'] },
      )
      .addEdge(START, 'route')
      .addEdge('route', 'always')
      .addEdge('always', END)
      .addEdge('big', END)
      .addEdge('small', END)
      .compile();
    expect(await app.invoke({ x: 1 })).toMatchObject({ flag: true, log: ['route', 'always', 'big true'] });
    expect((await app.invoke({ x: 0 })).log).toEqual(['route', 'always', 'small']);
  });

  it('accepts Sends and END in a Command goto', async () => {
    const app = new StateGraph(LogState, { reducers })
      .addNode('item', (input: string) => ({ log: input }))
      .addNode('fan', () => new Command({ goto: [new Send('item', 'a'), new Send('item', 'b'), END] }), {
        goto: ['item', END],
      })
      .addEdge(START, 'fan')
      .addEdge('item', END)
      .compile();
    expect((await app.invoke({})).log).toEqual(['a', 'b']);
  });

  it('rejects a Command goto to a node that does not exist', async () => {
    const app = new StateGraph(LogState, { reducers })
      .addNode('bad', () => new Command({ goto: 'nowhere' as 'bad' }))
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .compile();
    await expect(app.invoke({})).rejects.toMatchObject({ code: 'INVALID_UPDATE' });
  });

  it('runs Sends with their own input in the next step, after triggered nodes, applied in Send order', async () => {
    const steps: string[] = [];
    const app = new StateGraph(LogState, { reducers })
      .addNode('square', async (n: number, ctx) => {
        await turns(n === 1 ? 5 : 0);
        steps.push(`${ctx.step}:square(${n})`);
        return { log: `sq${n * n}`, total: n * n };
      })
      .addNode('other', (_s, ctx) => {
        steps.push(`${ctx.step}:other`);
        return { log: 'other' };
      })
      .addConditionalEdges(START, () => [
        'other',
        new Send('square', 1),
        new Send('square', 2),
        new Send('square', 3),
      ])
      .addEdge('square', END)
      .addEdge('other', END)
      .compile();
    const final = await app.invoke({});
    expect(final.total).toBe(14);
    expect(final.log).toEqual(['other', 'sq1', 'sq4', 'sq9']);
    expect(steps.every((s) => s.startsWith('0:'))).toBe(true);
    expect(steps.at(-1)).toBe('0:square(1)');
  });

  it('keeps Sends in the order they were made across routers, whole lists of Sends and mixed lists', async () => {
    const app = new StateGraph(LogState, { reducers })
      .addNode('item', (name: string) => ({ log: name }))
      .addNode('other', () => ({ log: 'other' }))
      .addConditionalEdges(START, () => [new Send('item', 'a'), new Send('item', 'b')])
      .addConditionalEdges(START, () => new Send('item', 'c'))
      .addConditionalEdges(START, () => ['other', new Send('item', 'd'), new Send('item', 'e')])
      .addEdge('item', END)
      .addEdge('other', END)
      .compile();
    expect((await app.invoke({})).log).toEqual(['other', 'a', 'b', 'c', 'd', 'e']);
  });

  it('rejects a router result that is not a target and a target outside the declared ones', async () => {
    const bad = new StateGraph(LogState)
      .addNode('a', () => ({}))
      .addConditionalEdges(START, () => 42 as unknown as 'a')
      .addEdge('a', END)
      .compile();
    await expect(bad.invoke({})).rejects.toMatchObject({ code: 'INVALID_UPDATE' });
    const undeclared = new StateGraph(LogState)
      .addNode('a', () => ({}))
      .addNode('b', () => ({}))
      .addConditionalEdges(START, () => 'b' as 'a', ['a'])
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile();
    await expect(undeclared.invoke({})).rejects.toThrow(/not among its declared targets/);
  });

  it('reports a router that throws or rejects as NODE_FAILED naming its node, with the cause', async () => {
    const cause = new Error('model unavailable');
    const routers: Array<() => typeof END | Promise<typeof END>> = [
      () => {
        throw cause;
      },
      async () => {
        throw cause;
      },
    ];
    for (const router of routers) {
      const app = new StateGraph(LogState)
        .addNode('a', () => ({}))
        .addEdge(START, 'a')
        .addConditionalEdges('a', router)
        .compile();
      const error = await app.invoke({}).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'NODE_FAILED', cause });
      expect((error as Error).message).toContain('the router of "a" threw: model unavailable');
    }
  });

  it('awaits asynchronous routers', async () => {
    const app = new StateGraph(LogState, { reducers })
      .addNode('a', () => ({ log: 'a' }))
      .addConditionalEdges(START, async () => 'a')
      .addEdge('a', END)
      .compile();
    expect((await app.invoke({})).log).toEqual(['a']);
  });

  it('fails with WriteConflictError naming both nodes when two nodes of a step write one last-value key', async () => {
    const app = new StateGraph(LogState)
      .addNode('left', () => ({ x: 1 }))
      .addNode('right', () => ({ x: 2 }))
      .addEdge(START, 'left')
      .addEdge(START, 'right')
      .addEdge('left', END)
      .addEdge('right', END)
      .compile();
    const error = await app.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteConflictError);
    expect(error).toMatchObject({ key: 'x', nodes: ['left', 'right'] });
  });

  it('stops a runaway loop with StepLimitError (default 25, overridable per run and per compile)', async () => {
    let runs = 0;
    const graph = new StateGraph(LogState)
      .addNode('spin', (s) => {
        runs++;
        return { x: s.x + 1 };
      })
      .addEdge(START, 'spin')
      .addConditionalEdges('spin', (s) => (s.x < 1000 ? 'spin' : END));
    const error = await graph
      .compile()
      .invoke({})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepLimitError);
    expect(error).toMatchObject({ code: 'STEP_LIMIT', limit: 25 });
    expect(runs).toBe(25);
    await expect(graph.compile().invoke({}, { maxSteps: 3 })).rejects.toMatchObject({ limit: 3 });
    await expect(graph.compile({ maxSteps: 7 }).invoke({})).rejects.toMatchObject({ limit: 7 });
  });

  it('finishes a run that needs exactly maxSteps steps', async () => {
    const app = new StateGraph(LogState)
      .addNode('spin', (s) => ({ x: s.x + 1 }))
      .addEdge(START, 'spin')
      .addConditionalEdges('spin', (s) => (s.x < 4 ? 'spin' : END))
      .compile({ maxSteps: 4 });
    expect((await app.invoke({})).x).toBe(4);
  });

  it('numbers steps from 0 and gives each task its node name and a deterministic id', async () => {
    const seen: string[] = [];
    const app = new StateGraph(LogState)
      .addNode('a', (_s, ctx) => {
        seen.push(`${ctx.step}/${ctx.node}/${ctx.taskId}/${ctx.attempt}`);
        return {};
      })
      .addNode('b', (_s, ctx) => {
        seen.push(`${ctx.step}/${ctx.node}/${ctx.taskId}/${ctx.attempt}`);
        return {};
      })
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile();
    await app.invoke({}, { config: { user: 'u1' } });
    expect(seen).toEqual(['0/a/0:a:0/1', '1/b/1:b:0/1']);
  });

  it('passes run config to every node', async () => {
    const app = new StateGraph(LogState, { reducers })
      .addNode('a', (_s, ctx) => ({ log: String(ctx.config.user) }))
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile();
    expect((await app.invoke({}, { config: { user: 'u1' } })).log).toEqual(['u1']);
  });

  it('caps how many tasks of a step run at once with the concurrency option', async () => {
    let running = 0;
    let peak = 0;
    const app = new StateGraph(LogState, { reducers })
      .addNode('work', async (n: number) => {
        running++;
        peak = Math.max(peak, running);
        await turns(2);
        running--;
        return { total: n };
      })
      .addConditionalEdges(START, () => Array.from({ length: 10 }, (_, i) => new Send('work', i)))
      .addEdge('work', END)
      .compile();
    expect((await app.invoke({}, { concurrency: 3 })).total).toBe(45);
    expect(peak).toBe(3);
    peak = 0;
    await app.invoke({});
    expect(peak).toBe(10);
  });

  it('rejects a concurrency below 1 instead of running nothing', async () => {
    let runs = 0;
    const app = new StateGraph(LogState, { reducers })
      .addNode('work', () => {
        runs++;
        return { total: 1 };
      })
      .addConditionalEdges(START, () => [new Send('work', 1), new Send('work', 2)])
      .addEdge('work', END)
      .compile();
    await expect(app.invoke({}, { concurrency: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(runs).toBe(0);
  });
});
