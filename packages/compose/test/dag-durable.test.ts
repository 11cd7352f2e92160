import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import {
  appendReducer,
  CheckpointConflictError,
  Command,
  END,
  Graph,
  START,
  StateGraph,
  WeftError,
} from '../src/index.js';

const Log = z.object({ log: z.array(z.string()).default([]) });
const options = { reducers: { log: appendReducer } };

/** A promise with its resolver, so a test orders concurrent nodes without clocks. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * `a → [ask, slow, fast] → join`, `fast → tail`: `ask` pauses while `slow` is still running (it waits
 * for a gate that `ask` opens), and `fast` finishes with a successor `tail` that is ready when the run
 * is pausing.
 */
function buildApp(saver: MemoryCheckpointer, runs: string[]) {
  const slowGate = gate();
  const node = (name: string) => (state: { log: string[] }) => {
    runs.push(name);
    return { log: `${name}(${state.log.length})` };
  };
  const app = new StateGraph(Log, options)
    .addNode('a', node('a'))
    .addNode('ask', (state, ctx) => {
      runs.push('ask');
      slowGate.open();
      const answer = ctx.interrupt<string>({ question: 'go?' });
      return { log: `ask:${answer}(${state.log.length})` };
    })
    .addNode('slow', async (state) => {
      await slowGate.opened;
      return node('slow')(state);
    })
    .addNode('fast', node('fast'))
    .addNode('tail', node('tail'))
    .addNode('join', node('join'))
    .addEdge(START, 'a')
    .addEdge('a', 'ask')
    .addEdge('a', 'slow')
    .addEdge('a', 'fast')
    .addEdge('fast', 'tail')
    .addEdge(['ask', 'slow', 'tail'], 'join')
    .addEdge('join', END)
    .compile({ checkpointer: saver, mode: 'dag' });
  return app;
}

async function reference(): Promise<unknown> {
  const app = new StateGraph(Log, options)
    .addNode('a', (s) => ({ log: `a(${s.log.length})` }))
    .addNode('ask', (s) => ({ log: `ask:yes(${s.log.length})` }))
    .addNode('slow', (s) => ({ log: `slow(${s.log.length})` }))
    .addNode('fast', (s) => ({ log: `fast(${s.log.length})` }))
    .addNode('tail', (s) => ({ log: `tail(${s.log.length})` }))
    .addNode('join', (s) => ({ log: `join(${s.log.length})` }))
    .addEdge(START, 'a')
    .addEdge('a', 'ask')
    .addEdge('a', 'slow')
    .addEdge('a', 'fast')
    .addEdge('fast', 'tail')
    .addEdge(['ask', 'slow', 'tail'], 'join')
    .addEdge('join', END)
    .compile({ mode: 'dag' });
  return app.invoke({});
}

describe('DAG mode with a checkpointer', () => {
  it('pauses while a sibling still runs: the sibling finishes and is recorded, nothing new starts', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    const paused = (await buildApp(saver, runs).invoke({}, { threadId: 't' })) as Record<string, unknown>;
    expect(paused.__interrupt__).toHaveLength(1);
    // `slow` was still running at the pause and finished; `fast` finished too.
    expect(runs.filter((n) => n === 'slow')).toHaveLength(1);
    expect(runs).not.toContain('join');
    const state = await buildApp(saver, []).getState('t');
    expect(state?.interrupts).toHaveLength(1);
    expect(state?.next).toContain('ask');
    expect(state?.values.log).toEqual(expect.arrayContaining(['a(0)', 'slow(1)', 'fast(1)']));

    const again: string[] = [];
    const done = await buildApp(saver, again).invoke(new Command({ resume: 'yes' }), { threadId: 't' });
    expect(done).toEqual(await reference());
    // Only the paused node, the node held at the pause, and what follows them ran again.
    expect(again.sort()).toEqual(['ask', 'join', ...(runs.includes('tail') ? [] : ['tail'])].sort());
    const final = await buildApp(saver, []).getState('t');
    expect(final?.values).toEqual(done);
    expect(final?.next).toEqual([]);
  });

  it('a failed run continues with null without re-running the nodes that finished', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    let fail = true;
    const ran = (name: string) => () => {
      runs.push(name);
      return { log: name };
    };
    const build = () =>
      new StateGraph(Log, options)
        .addNode('a', ran('a'))
        .addNode('b', ran('b'))
        .addNode('c', async () => {
          runs.push('c');
          if (fail) throw new Error('boom');
          return { log: 'c' };
        })
        .addNode('d', ran('d'))
        .addEdge(START, 'a')
        .addEdge('a', 'b')
        .addEdge('a', 'c')
        .addEdge(['b', 'c'], 'd')
        .addEdge('d', END)
        .compile({ checkpointer: saver, mode: 'dag' });
    await expect(build().invoke({}, { threadId: 'f' })).rejects.toThrow('boom');
    fail = false;
    runs.length = 0;
    expect(await build().invoke(null, { threadId: 'f' })).toEqual({ log: ['a', 'b', 'c', 'd'] });
    expect(runs).toEqual(['c', 'd']);
  });

  it('keeps history per run and pause, replays from an older checkpoint, and forks without overwriting', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    const app = buildApp(saver, runs);
    await app.invoke({}, { threadId: 'h' });
    await app.invoke(new Command({ resume: 'yes' }), { threadId: 'h' });
    const history = await app.getStateHistory('h');
    expect(history.map((s) => s.source)).toEqual(['loop', 'loop', 'input']);
    const pause = history[1];
    expect(pause?.next).toContain('ask');
    // Replaying the pause checkpoint forks: the finished siblings are not run again, `ask` asks again.
    const again: string[] = [];
    const replayedPause = (await buildApp(saver, again).invoke(null, {
      threadId: 'h',
      checkpointId: pause?.checkpointId as string,
    })) as Record<string, unknown>;
    expect(replayedPause.__interrupt__).toHaveLength(1);
    const forked = await buildApp(saver, again).invoke(new Command({ resume: 'yes' }), { threadId: 'h' });
    expect(forked).toEqual(await reference());
    expect(again).not.toContain('slow');
    expect(again).not.toContain('a');
    expect(again.filter((n) => n === 'ask')).toHaveLength(2);
    const after = await app.getStateHistory('h');
    expect(after.length).toBeGreaterThan(history.length);
    expect(after.slice(-history.length).map((s) => s.checkpointId)).toEqual(
      history.map((s) => s.checkpointId),
    );
    // Replaying from the input checkpoint runs the DAG again from its start.
    const input = history[2];
    const replay: string[] = [];
    const replayed = (await buildApp(saver, replay).invoke(null, {
      threadId: 'h',
      checkpointId: input?.checkpointId as string,
    })) as Record<string, unknown>;
    expect(replayed.__interrupt__).toHaveLength(1);
    expect(replay).toContain('a');
  });

  it('continues a thread with a new turn on top of the previous state', async () => {
    const saver = new MemoryCheckpointer();
    const app = new StateGraph(Log, options)
      .addNode('x', (s) => ({ log: `x${s.log.length}` }))
      .addNode('y', (s) => ({ log: `y${s.log.length}` }))
      .addEdge(START, 'x')
      .addEdge(START, 'y')
      .addEdge(['x', 'y'], END)
      .compile({ checkpointer: saver, mode: 'dag' });
    await app.invoke({}, { threadId: 'turns' });
    expect(await app.invoke({ log: ['user'] }, { threadId: 'turns' })).toEqual({
      log: ['x0', 'y0', 'user', 'x3', 'y3'],
    });
  });

  it('checkpoints dataflow graphs: the output survives a pause', async () => {
    const saver = new MemoryCheckpointer();
    const build = () =>
      new Graph<string, string>()
        .addNode('upper', (s: string) => s.toUpperCase())
        .addNode('ask', (s: string, ctx) => `${s}-${ctx.interrupt<string>('suffix?')}`, { outputKey: 'ask' })
        .addNode('list', (s: string) => [s, s], { outputKey: 'list' })
        .addNode('join', (input: { ask: string; list: string[] }) => `${input.ask}|${input.list.join(',')}`)
        .addEdge(START, 'upper')
        .addEdge('upper', 'ask')
        .addEdge('upper', 'list')
        .addEdge(['ask', 'list'], 'join')
        .addEdge('join', END)
        .compile({ checkpointer: saver, mode: 'dag' });
    const paused = await build().run('hi', { threadId: 'd' });
    expect(paused.status).toBe('interrupted');
    const done = await build().run(new Command({ resume: 'ok' }), { threadId: 'd' });
    expect(done.output).toBe('HI-ok|HI,HI');
    expect((await build().getState('d'))?.values).toBe('HI-ok|HI,HI');
  });

  it('holds one writer per thread: a second run on a running thread gets CheckpointConflictError', async () => {
    const saver = new MemoryCheckpointer();
    const hold = gate();
    const entered = gate();
    const app = new StateGraph(Log, options)
      .addNode('wait', async () => {
        entered.open();
        await hold.opened;
        return { log: 'wait' };
      })
      .addEdge(START, 'wait')
      .addEdge('wait', END)
      .compile({ checkpointer: saver, mode: 'dag' });
    const first = app.invoke({}, { threadId: 'one' });
    await entered.opened;
    await expect(app.invoke({}, { threadId: 'one' })).rejects.toBeInstanceOf(CheckpointConflictError);
    hold.open();
    expect(await first).toEqual({ log: ['wait'] });
  });

  it('rejects static breakpoints and Command goto in DAG mode with typed errors', async () => {
    const saver = new MemoryCheckpointer();
    const app = new StateGraph(Log, options)
      .addNode('x', () => ({ log: 'x' }))
      .addEdge(START, 'x')
      .addEdge('x', END)
      .compile({ checkpointer: saver, mode: 'dag', interruptBefore: ['x'] });
    await expect(app.invoke({}, { threadId: 'b' })).rejects.toBeInstanceOf(WeftError);
  });

  it('updateState on a paused DAG run: asNode finishes that node, values alone reach the nodes not run', async () => {
    const saver = new MemoryCheckpointer();
    const State = z.object({ log: z.array(z.string()).default([]), topic: z.string().default('') });
    const app = new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode('a', () => ({ log: 'a' }))
      .addNode('ask', (s, ctx) => ({ log: `ask:${ctx.interrupt<string>('?')}:${s.topic}` }))
      .addNode('side', (s) => ({ log: `side:${s.topic}` }))
      .addNode('end', (s) => ({ log: `end:${s.topic}` }))
      .addEdge(START, 'a')
      .addEdge('a', 'ask')
      .addEdge('a', 'side')
      .addEdge(['ask', 'side'], 'end')
      .addEdge('end', END)
      .compile({ checkpointer: saver, mode: 'dag' });
    await app.invoke({ topic: 'start' }, { threadId: 'u1' });
    await app.updateState('u1', { topic: 'edited' });
    expect(await app.invoke(new Command({ resume: 'ok' }), { threadId: 'u1' })).toEqual({
      log: ['a', 'ask:ok:edited', 'side:start', 'end:edited'],
      topic: 'edited',
    });
    await app.invoke({ topic: 'start' }, { threadId: 'u2' });
    await app.updateState('u2', { log: 'answered by hand' }, { asNode: 'ask' });
    expect(await app.invoke(null, { threadId: 'u2' })).toEqual({
      log: ['a', 'answered by hand', 'side:start', 'end:start'],
      topic: 'start',
    });
  });

  it('a cancelled DAG run is resumable: finished nodes are kept, the cancelled one runs again', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    const cFinished = gate();
    let block = true;
    const app = new StateGraph(Log, options)
      .addNode('a', () => {
        runs.push('a');
        return { log: 'a' };
      })
      .addNode('b', async (_s, ctx) => {
        runs.push('b');
        if (block) {
          await new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
          });
        }
        return { log: 'b' };
      })
      .addNode('c', () => {
        runs.push('c');
        cFinished.open();
        return { log: 'c' };
      })
      .addNode('d', () => {
        runs.push('d');
        return { log: 'd' };
      })
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('a', 'c')
      .addEdge(['b', 'c'], 'd')
      .addEdge('d', END)
      .compile({ checkpointer: saver, mode: 'dag' });
    const controller = new AbortController();
    const cancelled = app.invoke({}, { threadId: 'cancel', signal: controller.signal });
    await cFinished.opened;
    controller.abort(new Error('stop'));
    await expect(cancelled).rejects.toThrow();
    block = false;
    runs.length = 0;
    expect(await app.invoke(null, { threadId: 'cancel' })).toEqual({ log: ['a', 'b', 'c', 'd'] });
    expect(runs).toEqual(['b', 'd']);
  });

  it('a DAG subgraph whose run failed continues inside its parent without re-running its finished nodes', async () => {
    const saver = new MemoryCheckpointer();
    const runs: string[] = [];
    let fail = true;
    const ran = (name: string) => () => {
      runs.push(name);
      return { log: name };
    };
    const inner = new StateGraph(Log, options)
      .addNode('i1', ran('i1'))
      .addNode('i2', () => {
        runs.push('i2');
        if (fail) throw new Error('inner boom');
        return { log: 'i2' };
      })
      .addEdge(START, 'i1')
      .addEdge('i1', 'i2')
      .addEdge('i2', END)
      .compile({ name: 'inner', mode: 'dag' });
    const app = new StateGraph(Log, options)
      .addNode('before', ran('before'))
      .addNode('sub', inner)
      .addNode('after', ran('after'))
      .addEdge(START, 'before')
      .addEdge('before', 'sub')
      .addEdge('sub', 'after')
      .addEdge('after', END)
      .compile({ checkpointer: saver, mode: 'dag' });
    await expect(app.invoke({}, { threadId: 'nested' })).rejects.toThrow('inner boom');
    expect((await app.getState('nested'))?.next).toEqual(['sub']);
    fail = false;
    runs.length = 0;
    expect(await app.invoke(null, { threadId: 'nested' })).toEqual({ log: ['before', 'i1', 'i2', 'after'] });
    expect(runs).toEqual(['i2', 'after']);
  });

  it('streams updates on resume only for the nodes that run, not for the replayed ones', async () => {
    const saver = new MemoryCheckpointer();
    const first: unknown[] = [];
    for await (const part of buildApp(saver, []).stream({}, { threadId: 's', mode: 'updates' }))
      first.push(part);
    const nodesOf = (parts: unknown[]) => parts.map((part) => (part as { node?: string }).node);
    expect(nodesOf(first)).toEqual(expect.arrayContaining(['a', 'slow', 'fast']));
    expect(nodesOf(first)).not.toContain('join');
    const second: unknown[] = [];
    const resume = new Command({ resume: 'yes' });
    for await (const part of buildApp(saver, []).stream(resume, { threadId: 's', mode: 'updates' }))
      second.push(part);
    const again = nodesOf(second);
    expect(again).toContain('ask');
    expect(again).toContain('join');
    for (const node of ['a', 'slow', 'fast']) expect(again).not.toContain(node);
  });
});
