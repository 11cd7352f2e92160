import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { appendReducer, END, START, StateGraph } from '../src/index.js';
import { replayThread } from '../src/maintenance/index.js';

const State = z.object({
  topic: z.string(),
  log: z.array(z.string()).default([]),
  title: z.string().optional(),
});

function writer(checkpointer: MemoryCheckpointer, titleCase: (topic: string) => string) {
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode('draft', (state) => ({ log: `draft ${state.topic}` }))
    .addNode('title', (state) => ({ title: titleCase(state.topic), log: 'titled' }))
    .addEdge(START, 'draft')
    .addEdge('draft', 'title')
    .addEdge('title', END)
    .compile({ checkpointer, name: 'writer' });
}

describe('replayThread', () => {
  it('replays each recorded step from its recorded state and reports per node what changed', async () => {
    const production = new MemoryCheckpointer();
    await writer(production, (topic) => topic.toUpperCase()).invoke({ topic: 'cats' }, { threadId: 't' });
    const before = await production.list('t');

    const same = await replayThread('t', {
      checkpointer: production,
      graph: writer(production, (t) => t.toUpperCase()),
    });
    expect(same.changed).toBe(0);
    expect(same.steps.map((step) => step.nodes.map((node) => [node.node, node.status]))).toEqual([
      [['draft', 'same']],
      [['title', 'same']],
    ]);

    const changed = await replayThread('t', {
      checkpointer: production,
      graph: writer(new MemoryCheckpointer(), (topic) => `${topic[0]?.toUpperCase()}${topic.slice(1)}`),
    });
    expect(changed.changed).toBe(1);
    expect(changed.steps[1]?.nodes).toEqual([
      {
        node: 'title',
        status: 'changed',
        differences: [{ key: 'title', recorded: 'CATS', replayed: 'Cats' }],
      },
    ]);
    // The recorded thread is only read.
    expect(await production.list('t')).toEqual(before);
  });

  it('reports a node that now throws, and a node that no longer exists', async () => {
    const production = new MemoryCheckpointer();
    await writer(production, (topic) => topic).invoke({ topic: 'dogs' }, { threadId: 't' });
    const failing = writer(new MemoryCheckpointer(), () => {
      throw new Error('no titles today');
    });
    const report = await replayThread('t', { checkpointer: production, graph: failing });
    expect(report.steps[1]?.nodes[0]).toMatchObject({
      node: 'title',
      status: 'failed',
      error: expect.stringContaining('no titles today'),
    });
    await expect(replayThread('missing', { checkpointer: production, graph: failing })).rejects.toMatchObject(
      { code: 'NOT_FOUND' },
    );
  });
});
