import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import type { CompileOptions } from '../src/index.js';
import { appendReducer, Command, END, START, StateGraph } from '../src/index.js';

const Log = z.object({ log: z.array(z.string()).default([]), laps: z.number().default(0) });
const options = { reducers: { log: appendReducer } };

/** A node that records that it ran and appends its name to the log. */
function logged(runs: string[], name: string) {
  return () => {
    runs.push(name);
    return { log: name };
  };
}
type Nodes = 'a' | 'b' | 'c';

/** `a → b → c`, counting runs; `c` loops back to `b` while `laps < loops`. */
function buildChain(compile: Omit<CompileOptions<Nodes>, 'checkpointer'> = {}, loops = 0) {
  const runs: string[] = [];
  const node = (name: Nodes) => (state: { log: string[]; laps: number }) => {
    runs.push(name);
    return name === 'c' ? { log: `c(${state.log.length})`, laps: state.laps + 1 } : { log: name };
  };
  const app = new StateGraph(Log, options)
    .addNode('a', node('a'))
    .addNode('b', node('b'))
    .addNode('c', node('c'))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('b', 'c')
    .addConditionalEdges('c', (state) => (state.laps <= loops - 1 ? 'b' : END), ['b', END])
    .compile({ checkpointer: new MemoryCheckpointer(), ...compile });
  return { app, runs };
}

const unbroken = { log: ['a', 'b', 'c(2)'], laps: 1 };

describe('static breakpoints', () => {
  it('interruptBefore (compile) stops before the node; invoke(null) runs it once and goes on', async () => {
    const { app, runs } = buildChain({ interruptBefore: ['b'] });
    const paused = await app.run({}, { threadId: 't' });
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts.map((i) => i.value)).toEqual([{ breakpoint: 'before', node: 'b' }]);
    expect(runs).toEqual(['a']);
    const state = await app.getState('t');
    expect(state?.next).toEqual(['b']);
    expect(state?.interrupts.map((i) => i.value)).toEqual([{ breakpoint: 'before', node: 'b' }]);
    expect(await app.invoke(null, { threadId: 't' })).toEqual(unbroken);
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it('interruptAfter (compile) stops after the node; continuing does not run it again', async () => {
    const { app, runs } = buildChain({ interruptAfter: ['a'] });
    const paused = await app.invoke({}, { threadId: 't' });
    expect(paused).toMatchObject({
      log: ['a'],
      __interrupt__: [{ value: { breakpoint: 'after', node: 'a' } }],
    });
    expect((await app.getState('t'))?.next).toEqual(['b']);
    expect(await app.invoke(null, { threadId: 't' })).toEqual(unbroken);
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it('continuing from an after-breakpoint still stops at the next before-breakpoint', async () => {
    const { app, runs } = buildChain({ interruptAfter: ['a'], interruptBefore: ['b'] });
    expect((await app.run({}, { threadId: 't' })).interrupts[0]?.value).toEqual({
      breakpoint: 'after',
      node: 'a',
    });
    const second = await app.run(null, { threadId: 't' });
    expect(second.interrupts.map((i) => i.value)).toEqual([{ breakpoint: 'before', node: 'b' }]);
    expect(runs).toEqual(['a']);
    expect((await app.run(null, { threadId: 't' })).status).toBe('done');
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it('run-level lists override the compile options', async () => {
    const { app, runs } = buildChain({ interruptBefore: ['b'] });
    const first = await app.run({}, { threadId: 't', interruptBefore: [], interruptAfter: ['c'] });
    expect(first.interrupts.map((i) => i.value)).toEqual([{ breakpoint: 'after', node: 'c' }]);
    expect(runs).toEqual(['a', 'b', 'c']);
    const plain = buildChain();
    expect((await plain.app.run({}, { threadId: 't', interruptBefore: ['c'] })).status).toBe('interrupted');
    expect(plain.runs).toEqual(['a', 'b']);
    expect(await plain.app.invoke(null, { threadId: 't' })).toEqual(unbroken);
    await expect(plain.app.run({}, { threadId: 'u', interruptBefore: ['zz'] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('a breakpoint on a node inside a loop stops at every visit', async () => {
    const { app, runs } = buildChain({ interruptBefore: ['b'] }, 3);
    let result = await app.run({}, { threadId: 't' });
    let stops = 0;
    while (result.status === 'interrupted') {
      stops++;
      result = await app.run(null, { threadId: 't' });
    }
    expect(stops).toBe(3);
    expect(runs.filter((r) => r === 'b')).toHaveLength(3);
    expect(result.output).toEqual({ log: ['a', 'b', 'c(2)', 'b', 'c(4)', 'b', 'c(6)'], laps: 3 });
  });

  it('streams end with the breakpoint and continue with stream(null)', async () => {
    const { app, runs } = buildChain({ interruptBefore: ['c'] });
    const first: unknown[] = [];
    for await (const part of app.stream({}, { threadId: 't', mode: 'updates' })) first.push(part);
    expect(first.at(-1)).toMatchObject({ node: '__interrupt__', update: [{ value: { node: 'c' } }] });
    const rest: unknown[] = [];
    for await (const part of app.stream(null, { threadId: 't' })) rest.push(part);
    expect(rest.at(-1)).toEqual(unbroken);
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it('updateState at a before-breakpoint, then invoke(null), runs the node on the edited state', async () => {
    const { app, runs } = buildChain({ interruptBefore: ['c'] });
    await app.invoke({}, { threadId: 't' });
    await app.updateState('t', { log: 'edited' });
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['a', 'b', 'edited', 'c(3)'], laps: 1 });
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it('a Command({ resume }) also passes a breakpoint', async () => {
    const { app, runs } = buildChain({ interruptBefore: ['b'] });
    await app.invoke({}, { threadId: 't' });
    expect(await app.invoke(new Command({ resume: 'go' }), { threadId: 't' })).toEqual(unbroken);
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it("a subgraph's own breakpoints stop inside it, and invoke(null) continues there", async () => {
    const runs: string[] = [];
    const inner = new StateGraph(Log, options)
      .addNode('i1', logged(runs, 'i1'))
      .addNode('i2', logged(runs, 'i2'))
      .addEdge(START, 'i1')
      .addEdge('i1', 'i2')
      .addEdge('i2', END)
      .compile({ name: 'inner', interruptBefore: ['i2'] });
    const app = new StateGraph(Log, options)
      .addNode('o', logged(runs, 'o'))
      .addNode('sub', inner)
      .addEdge(START, 'o')
      .addEdge('o', 'sub')
      .addEdge('sub', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    const paused = await app.run({}, { threadId: 't' });
    expect(paused.interrupts.map((i) => [i.path, i.value])).toEqual([
      [['sub', 'i2'], { breakpoint: 'before', node: 'i2' }],
    ]);
    expect(runs).toEqual(['o', 'i1']);
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['o', 'i1', 'i2'], laps: 0 });
    expect(runs).toEqual(['o', 'i1', 'i2']);
  });
});
