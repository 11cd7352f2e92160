import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NodeError } from '../errors/node-error.js';
import { WriteConflictError } from '../errors/write-conflict-error.js';
import { Graph } from '../graph/graph.js';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';

const State = z.object({
  log: z.array(z.string()).default([]),
  choice: z.string().default('left'),
  value: z.number().optional(),
});
const reducers = { log: appendReducer };

/** Lets `count` macrotasks pass: enough for every ready microtask chain to settle. */
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('DAG mode', () => {
  it('runs a node once, after all its predecessors finished, seeing all their writes', async () => {
    const runs: string[] = [];
    const slow = gate();
    const app = new StateGraph(State, { reducers })
      .addNode('fast', () => ({ log: 'fast' }))
      .addNode('slow', async () => {
        await slow.opened;
        return { log: 'slow' };
      })
      .addNode('join', (s) => {
        runs.push(s.log.join(','));
        return { log: 'join' };
      })
      .addEdge(START, 'fast')
      .addEdge(START, 'slow')
      .addEdge('fast', 'join')
      .addEdge('slow', 'join')
      .addEdge('join', END)
      .compile({ mode: 'dag' });
    const result = app.invoke({});
    await turns(5);
    expect(runs).toEqual([]);
    slow.open();
    expect((await result).log).toEqual(['fast', 'slow', 'join']);
    expect(runs).toEqual(['fast,slow']);
  });

  it('starts a fast branch’s successor without waiting for a slow sibling', async () => {
    const order: string[] = [];
    const successorRan = gate();
    const app = new StateGraph(State, { reducers })
      .addNode('fast', () => ({ log: 'fast' }))
      .addNode('afterFast', () => {
        order.push('afterFast');
        successorRan.open();
        return { log: 'afterFast' };
      })
      .addNode('slow', async () => {
        // Finishes after afterFast ran, or after many turns if nothing starts it (then the order shows it).
        await Promise.race([successorRan.opened, turns(50)]);
        order.push('slow done');
        return { log: 'slow' };
      })
      .addEdge(START, 'fast')
      .addEdge(START, 'slow')
      .addEdge('fast', 'afterFast')
      .addEdge('afterFast', END)
      .addEdge('slow', END)
      .compile({ mode: 'dag' });
    await app.invoke({});
    expect(order).toEqual(['afterFast', 'slow done']);
  });

  it('skips the branches a router did not pick, and skips cascade to their successors', async () => {
    const ran: string[] = [];
    const node = (name: string) => () => {
      ran.push(name);
      return { log: name };
    };
    const app = new StateGraph(State, { reducers })
      .addNode('route', node('route'))
      .addNode('left', node('left'))
      .addNode('leftNext', node('leftNext'))
      .addNode('right', node('right'))
      .addNode('rightNext', node('rightNext'))
      .addNode('merge', node('merge'))
      .addEdge(START, 'route')
      .addConditionalEdges('route', (s) => s.choice as 'left' | 'right', ['left', 'right'])
      .addEdge('left', 'leftNext')
      .addEdge('right', 'rightNext')
      .addEdge('leftNext', 'merge')
      .addEdge('rightNext', 'merge')
      .addEdge('merge', END)
      .compile({ mode: 'dag' });
    expect((await app.invoke({ choice: 'right' })).log).toEqual(['route', 'right', 'rightNext', 'merge']);
    expect(ran).toEqual(['route', 'right', 'rightNext', 'merge']);
  });

  it('skips a node whose every predecessor was skipped, and ends cleanly', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('gate', () => ({ log: 'gate' }))
      .addNode('a', () => ({ log: 'a' }))
      .addNode('b', () => ({ log: 'b' }))
      .addNode('c', () => ({ log: 'c' }))
      .addEdge(START, 'gate')
      .addConditionalEdges('gate', () => END, ['a', END])
      .addEdge('a', 'b')
      .addEdge('a', 'c')
      .addEdge('b', 'c')
      .addEdge('c', END)
      .compile({ mode: 'dag' });
    expect((await app.invoke({})).log).toEqual(['gate']);
  });

  it('lets a router on START see the state with its schema defaults', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('left', () => ({ log: 'left' }))
      .addNode('right', () => ({ log: 'right' }))
      .addConditionalEdges(START, (s) => (s.log.length === 0 && s.choice === 'left' ? 'left' : 'right'), [
        'left',
        'right',
      ])
      .addEdge('left', END)
      .addEdge('right', END)
      .compile({ mode: 'dag' });
    expect((await app.invoke({})).log).toEqual(['left']);
  });

  it('gives a join the ancestors’ writes in topological order, whichever branch finished first', async () => {
    const seen: string[] = [];
    const build = (firstToFinish: 'a' | 'b') => {
      const later = gate();
      const branch = (name: 'a' | 'b') => async () => {
        if (name === firstToFinish) {
          later.open();
        } else await later.opened;
        await turns(1);
        return { log: name };
      };
      return new StateGraph(State, { reducers })
        .addNode('a', branch('a'))
        .addNode('b', branch('b'))
        .addNode('a2', () => ({ log: 'a2' }))
        .addNode('join', (s) => {
          seen.push(s.log.join(','));
          return {};
        })
        .addEdge(START, 'a')
        .addEdge(START, 'b')
        .addEdge('a', 'a2')
        .addEdge(['a2', 'b'], 'join')
        .addEdge('join', END)
        .compile({ mode: 'dag' });
    };
    const first = await build('a').invoke({ log: ['in'] });
    const second = await build('b').invoke({ log: ['in'] });
    expect(first).toEqual(second);
    expect(seen[0]).toBe(seen[1]);
    expect(new Set(first.log)).toEqual(new Set(['in', 'a', 'b', 'a2']));
  });

  it('reports two unrelated nodes writing one last-value key as a WriteConflictError', async () => {
    const app = new StateGraph(State)
      .addNode('left', () => ({ value: 1 }))
      .addNode('right', () => ({ value: 2 }))
      .addEdge(START, 'left')
      .addEdge(START, 'right')
      .addEdge('left', END)
      .addEdge('right', END)
      .compile({ mode: 'dag' });
    const error = await app.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteConflictError);
    expect((error as WriteConflictError).nodes).toEqual(['left', 'right']);
  });

  it('lets a descendant overwrite its ancestor’s last-value write', async () => {
    const app = new StateGraph(State)
      .addNode('first', () => ({ value: 1 }))
      .addNode('second', (s) => ({ value: (s.value ?? 0) + 1 }))
      .addNode('side', () => ({ choice: 'side' }))
      .addEdge(START, 'first')
      .addEdge(START, 'side')
      .addEdge('first', 'second')
      .addEdge(['second', 'side'], END)
      .compile({ mode: 'dag' });
    expect(await app.invoke({})).toMatchObject({ value: 2, choice: 'side' });
  });

  it('merges dataflow fan-in in topological order, whichever input arrived first', async () => {
    const late = gate();
    const app = new Graph<number, number[]>()
      .addNode('slowFirst', async (n: number) => {
        await late.opened;
        return n + 1;
      })
      .addNode('fastSecond', (n: number) => {
        late.open();
        return n + 2;
      })
      .addNode('sink', (all: number[]) => all, { merge: (inputs) => inputs })
      .addEdge(START, 'slowFirst')
      .addEdge(START, 'fastSecond')
      .addEdge(['slowFirst', 'fastSecond'], 'sink')
      .addEdge('sink', END)
      .compile({ mode: 'dag' });
    expect(await app.invoke(10)).toEqual([11, 12]);
  });

  it('fails the run with the node’s error and starts nothing after it', async () => {
    const ran: string[] = [];
    const app = new StateGraph(State, { reducers })
      .addNode('boom', () => {
        throw new Error('kaput');
      })
      .addNode('after', () => {
        ran.push('after');
        return {};
      })
      .addEdge(START, 'boom')
      .addEdge('boom', 'after')
      .addEdge('after', END)
      .compile({ mode: 'dag' });
    const error = await app.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeError);
    expect(error).toMatchObject({ node: 'boom', code: 'NODE_FAILED' });
    expect(ran).toEqual([]);
  });

  it('rejects at once when aborted, even while a node ignores its signal', async () => {
    const never = gate();
    const app = new StateGraph(State)
      .addNode('stubborn', async () => {
        await never.opened;
        return {};
      })
      .addEdge(START, 'stubborn')
      .addEdge('stubborn', END)
      .compile({ mode: 'dag' });
    const controller = new AbortController();
    const run = app.invoke({}, { signal: controller.signal }).catch((e: unknown) => e);
    await turns(2);
    controller.abort();
    const outcome = await Promise.race([run, turns(20).then(() => 'still running')]);
    never.open();
    expect(outcome).toMatchObject({ code: 'ABORTED' });
  });

  it('runs at most `concurrency` nodes at once', async () => {
    let running = 0;
    let peak = 0;
    let graph = new StateGraph(State, { reducers }) as StateGraph<typeof State, typeof reducers, string>;
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      graph = graph
        .addNode(name, async () => {
          running++;
          peak = Math.max(peak, running);
          await turns(2);
          running--;
          return { log: name };
        })
        .addEdge(START, name)
        .addEdge(name, END);
    }
    const app = graph.compile({ mode: 'dag' });
    expect((await app.invoke({}, { concurrency: 2 })).log).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(peak).toBe(2);
    await expect(app.invoke({}, { concurrency: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('refuses what DAG mode cannot do: Sends and Command gotos', async () => {
    const sends = new StateGraph(State)
      .addNode('a', () => ({}))
      .addConditionalEdges(START, () => [new Send('a', 1)], ['a'])
      .addEdge('a', END)
      .compile({ mode: 'dag' });
    await expect(sends.invoke({})).rejects.toThrow(/Send/);
    const goto = new StateGraph(State)
      .addNode('b', () => ({}))
      .addNode('a', () => new Command({ goto: 'b' }), { goto: ['b'] })
      .addEdge(START, 'a')
      .addEdge('b', END)
      .compile({ mode: 'dag' });
    await expect(goto.invoke({})).rejects.toThrow(/goto/);
  });

  it('streams each node’s update as it finishes', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('a', () => ({ log: 'a' }))
      .addNode('b', () => ({ log: 'b' }))
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile({ mode: 'dag' });
    const parts: unknown[] = [];
    for await (const part of app.stream({}, { mode: 'updates' })) parts.push(part);
    expect(parts).toEqual([
      { node: 'a', update: { log: 'a' }, path: [] },
      { node: 'b', update: { log: 'b' }, path: [] },
    ]);
  });

  it('applies a nested state subgraph’s writes, including its own subgraphs’, through the parent', async () => {
    const Log = z.object({ log: z.array(z.string()).default([]) });
    const inner = new StateGraph(Log, { reducers })
      .addNode('i', () => ({ log: 'i' }))
      .addEdge(START, 'i')
      .addEdge('i', END)
      .compile({ name: 'inner' });
    const middle = new StateGraph(Log, { reducers })
      .addNode('m', () => ({ log: 'm' }))
      .addNode('inner', inner)
      .addEdge(START, 'm')
      .addEdge('m', 'inner')
      .addEdge('inner', END)
      .compile({ name: 'middle', mode: 'dag' });
    const outer = new StateGraph(Log, { reducers })
      .addNode('middle', middle)
      .addEdge(START, 'middle')
      .addEdge('middle', END)
      .compile();
    expect((await outer.invoke({ log: ['in'] })).log).toEqual(['in', 'm', 'i']);
    expect((await middle.invoke({ log: ['in'] })).log).toEqual(['in', 'm', 'i']);
  });
});
