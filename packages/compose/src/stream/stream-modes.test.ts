import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputValidationError } from '../errors/input-validation-error.js';
import { NodeError } from '../errors/node-error.js';
import { Graph } from '../graph/graph.js';
import { StateGraph } from '../graph/state-graph.js';
import { runnable } from '../runnable/lambda.js';
import { appendReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';

const State = z.object({ text: z.string().default(''), log: z.array(z.string()).default([]) });
const reducers = { log: appendReducer };

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/** START → a → b → END, b streams its text in two chunks and emits a custom value. */
function twoSteps() {
  return new StateGraph(State, { reducers })
    .addNode('a', () => ({ log: 'a' }))
    .addNode('b', async function* (_s, ctx) {
      ctx.emit({ progress: 0.5 });
      yield { text: 'he' };
      yield { text: 'llo', log: 'b' };
    })
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('b', END)
    .compile();
}

describe('stream modes', () => {
  it('values: the state after the input and after each step', async () => {
    expect(await all(twoSteps().stream({ text: 'x' }))).toEqual([
      { text: 'x', log: [] },
      { text: 'x', log: ['a'] },
      { text: 'hello', log: ['a', 'b'] },
    ]);
  });

  it('updates: each node’s write with its name, chunks of a streaming node concatenated', async () => {
    expect(await all(twoSteps().stream({}, { mode: 'updates' }))).toEqual([
      { node: 'a', update: { log: 'a' }, path: [] },
      { node: 'b', update: { text: 'hello', log: 'b' }, path: [] },
    ]);
  });

  it('updates: one part per task, as each finishes (the state is still applied in task order)', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('slow', async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return { log: 'slow' };
      })
      .addNode('fast', () => ({ log: 'fast' }))
      .addNode('silent', () => undefined)
      .addEdge(START, 'slow')
      .addEdge(START, 'fast')
      .addEdge(START, 'silent')
      .addEdge(['slow', 'fast', 'silent'], END)
      .compile();
    const parts = await all(app.stream({}, { mode: 'updates' }));
    expect(parts.map((p) => p.node)).toEqual(['fast', 'slow']);
    const values = await all(app.stream({}, { mode: 'values' }));
    expect(values.at(-1)).toMatchObject({ log: ['slow', 'fast'] });
  });

  it('messages: the chunks of streaming nodes as they come', async () => {
    expect(await all(twoSteps().stream({}, { mode: 'messages' }))).toEqual([
      { node: 'b', chunk: { text: 'he' }, path: [] },
      { node: 'b', chunk: { text: 'llo', log: 'b' }, path: [] },
    ]);
  });

  it('messages: a runnable that implements only invoke streams as one chunk', async () => {
    const shout = runnable({ invoke: (s: { text: string }) => ({ text: s.text.toUpperCase() }) });
    const app = new StateGraph(State)
      .addNode('shout', shout)
      .addEdge(START, 'shout')
      .addEdge('shout', END)
      .compile();
    expect(await all(app.stream({ text: 'hi' }, { mode: 'messages' }))).toEqual([
      { node: 'shout', chunk: { text: 'HI' }, path: [] },
    ]);
  });

  it('custom: what nodes emit', async () => {
    expect(await all(twoSteps().stream({}, { mode: 'custom' }))).toEqual([
      { node: 'b', data: { progress: 0.5 }, path: [] },
    ]);
  });

  it('events: every event, from run-start to run-end', async () => {
    const types = (await all(twoSteps().stream({}, { mode: 'events' }))).map((e) => e.type);
    expect(types[0]).toBe('run-start');
    expect(types.at(-1)).toBe('run-end');
    expect(types.filter((t) => t === 'chunk')).toHaveLength(2);
    expect(types).toContain('custom');
  });

  it('several modes at once yield [mode, payload] tuples in the order things happened', async () => {
    const parts = await all(twoSteps().stream({}, { mode: ['updates', 'messages', 'custom'] }));
    expect(parts.map(([mode]) => mode)).toEqual(['updates', 'custom', 'messages', 'messages', 'updates']);
    expect(parts[0]).toEqual(['updates', { node: 'a', update: { log: 'a' }, path: [] }]);
  });

  it('values of a dataflow graph: its final output', async () => {
    const app = new Graph<string, number>()
      .addNode('len', (t: string) => t.length)
      .addEdge(START, 'len')
      .addEdge('len', END)
      .compile();
    expect(await all(app.stream('abc'))).toEqual([3]);
  });

  it('throws a node’s failure to the consumer after what was already yielded', async () => {
    const app = new StateGraph(State, { reducers })
      .addNode('ok', () => ({ log: 'ok' }))
      .addNode('bad', () => {
        throw new Error('bad');
      })
      .addEdge(START, 'ok')
      .addEdge('ok', 'bad')
      .addEdge('bad', END)
      .compile();
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const part of app.stream({}, { mode: 'updates' })) seen.push(part);
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(NodeError);
  });

  it('throws bad input to the consumer and runs nothing', async () => {
    let ran = false;
    const app = new StateGraph(State)
      .addNode('a', () => {
        ran = true;
        return {};
      })
      .addEdge(START, 'a')
      .addEdge('a', END)
      .compile();
    const stream = app.stream({ text: 1 } as never);
    await expect(stream.next()).rejects.toBeInstanceOf(InputValidationError);
    expect(ran).toBe(false);
  });

  it('includes nested subgraph parts only when asked to', async () => {
    const child = new StateGraph(State, { reducers })
      .addNode('inner', () => ({ log: 'inner' }))
      .addEdge(START, 'inner')
      .addEdge('inner', END)
      .compile({ name: 'child' });
    const app = new StateGraph(State, { reducers })
      .addNode('sub', child)
      .addEdge(START, 'sub')
      .addEdge('sub', END)
      .compile();
    const flat = await all(app.stream({}, { mode: 'updates' }));
    // The subgraph's update is its reducer result for the parent's keys (one update of the node).
    expect(flat).toEqual([{ node: 'sub', update: { log: ['inner'] }, path: [] }]);
    const nested = await all(app.stream({}, { mode: 'updates', subgraphs: true }));
    expect(nested).toEqual([
      { node: 'inner', update: { log: 'inner' }, path: ['sub'] },
      { node: 'sub', update: { log: ['inner'] }, path: [] },
    ]);
  });
});
