import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { Command, END, START, StateGraph, StateVersionError } from '../src/index.js';

/** Version 1 of a support graph: the customer's full name in one key, a review that asks before closing. */
function v1(checkpointer: MemoryCheckpointer) {
  return new StateGraph(
    z.object({ name: z.string(), notes: z.array(z.string()), approved: z.boolean().optional() }),
  )
    .addNode('triage', (state) => ({ notes: [...state.notes, `triaged ${state.name}`] }))
    .addNode('review', (_state, ctx) => ({ approved: ctx.interrupt<boolean>('close the ticket?') }))
    .addEdge(START, 'triage')
    .addEdge('triage', 'review')
    .addEdge('review', END)
    .compile({ checkpointer, name: 'support' });
}

const V2 = z.object({
  first: z.string(),
  last: z.string(),
  notes: z.array(z.string()),
  approved: z.boolean().optional(),
});

/** Version 2: the name split in two. `calls` counts migrations run. */
function v2(checkpointer: MemoryCheckpointer, calls = { n: 0 }) {
  return new StateGraph(V2)
    .addNode('triage', (state) => ({ notes: [...state.notes, `triaged ${state.first}`] }))
    .addNode('review', (state, ctx) => ({
      approved: ctx.interrupt<boolean>(`close ${state.first} ${state.last}'s ticket?`),
    }))
    .addEdge(START, 'triage')
    .addEdge('triage', 'review')
    .addEdge('review', END)
    .compile({
      checkpointer,
      name: 'support',
      stateVersion: 2,
      migrations: {
        1: (state) => {
          calls.n++;
          const { name, ...rest } = state as { name: string };
          const [first = '', last = ''] = name.split(' ');
          return { ...rest, first, last };
        },
      },
    });
}

describe('state migrations', () => {
  it('resumes a thread paused under version 1 with version 2, migrated on load and stored migrated', async () => {
    const checkpointer = new MemoryCheckpointer();
    const paused = await v1(checkpointer).run({ name: 'Ada Lovelace', notes: [] }, { threadId: 't' });
    expect(paused.status).toBe('interrupted');
    expect((await checkpointer.get('t'))?.checkpoint.metadata).toMatchObject({
      graph: 'support',
      stateVersion: 1,
    });

    const calls = { n: 0 };
    const app = v2(checkpointer, calls);
    expect((await app.getState('t'))?.values).toEqual({
      first: 'Ada',
      last: 'Lovelace',
      notes: ['triaged Ada Lovelace'],
    });
    const done = await app.invoke(new Command({ resume: true }), { threadId: 't' });
    expect(done).toEqual({ first: 'Ada', last: 'Lovelace', notes: ['triaged Ada Lovelace'], approved: true });

    const head = (await checkpointer.get('t'))?.checkpoint;
    expect(head?.metadata).toMatchObject({ graph: 'support', stateVersion: 2 });
    expect(head?.baseId).toBe(head?.id); // a full snapshot of the migrated state
    const before = calls.n;
    expect((await app.getState('t'))?.values).toEqual(done);
    expect(calls.n).toBe(before); // the migrated head is read without migrating again
    // Older checkpoints stay as written and are migrated when read (time travel shows version 2 state).
    const history = await app.getStateHistory('t');
    expect(history.at(-1)?.values).toEqual({ first: 'Ada', last: 'Lovelace', notes: [] });
  });

  it('migrates rows written before checkpoints recorded a version as version 1', async () => {
    const old = new MemoryCheckpointer();
    await v1(old).run({ name: 'Grace Hopper', notes: [] }, { threadId: 't' });
    // Rows as a store written before #48 holds them: metadata without `graph` and `stateVersion`.
    const legacy = new MemoryCheckpointer();
    for (const record of (await old.list('t')).reverse()) {
      const { graph: _graph, stateVersion: _version, ...metadata } = record.metadata;
      await legacy.put({ ...record, metadata });
      for (const write of (await old.get('t', { id: record.id }))?.writes ?? [])
        await legacy.putWrites(write);
    }
    expect(await v2(legacy).invoke(new Command({ resume: false }), { threadId: 't' })).toMatchObject({
      first: 'Grace',
      last: 'Hopper',
      approved: false,
    });
  });

  it('refuses a thread written by a newer version, naming the thread, checkpoint and versions', async () => {
    const checkpointer = new MemoryCheckpointer();
    await v2(checkpointer).run({ first: 'Ada', last: 'L', notes: [] }, { threadId: 't' });
    const head = (await checkpointer.get('t'))?.checkpoint.id as string;
    const error = await v1(checkpointer)
      .invoke(new Command({ resume: true }), { threadId: 't' })
      .catch((caught: unknown) => caught);
    expect(StateVersionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'STATE_VERSION',
      reason: 'newer',
      threadId: 't',
      checkpointId: head,
      graph: 'support',
      storedVersion: 2,
      graphVersion: 1,
    });
    await expect(v1(checkpointer).getState('t')).rejects.toThrow(
      /holds state version 2, newer than graph "support" reads \(version 1\)/,
    );
  });

  it('names a missing or failing migration', async () => {
    const checkpointer = new MemoryCheckpointer();
    await v1(checkpointer).run({ name: 'Ada L', notes: [] }, { threadId: 't' });
    const State = z.object({ notes: z.array(z.string()) });
    const gap = new StateGraph(State)
      .addNode('triage', () => ({}))
      .addEdge(START, 'triage')
      .addEdge('triage', END)
      .compile({ checkpointer, name: 'support', stateVersion: 3, migrations: { 2: (state) => state } });
    await expect(gap.getState('t')).rejects.toMatchObject({
      code: 'STATE_VERSION',
      reason: 'no-migration',
      storedVersion: 1,
    });
    const failing = new StateGraph(State)
      .addNode('triage', () => ({}))
      .addEdge(START, 'triage')
      .addEdge('triage', END)
      .compile({
        checkpointer,
        name: 'support',
        stateVersion: 2,
        migrations: {
          1: () => {
            throw new Error('no name to split');
          },
        },
      });
    const error = await failing.getState('t').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: 'migration-failed', cause: { message: 'no name to split' } });
    expect((error as Error).message).toMatch(
      /migration of graph "support" from version 1 failed: no name to split/,
    );
  });

  it('refuses bad versions and migrations at compile time', () => {
    const graph = new StateGraph(z.object({ n: z.number() })).addNode('a', () => ({})).addEdge(START, 'a');
    expect(() => graph.compile({ stateVersion: 0 })).toThrow(/stateVersion must be a positive integer/);
    expect(() => graph.compile({ stateVersion: 2, migrations: { 2: (s) => s } })).toThrow(
      /migrations\.2 must be a function/,
    );
  });
});

describe('nodes renamed or removed while a thread is paused at them', () => {
  const State = z.object({ note: z.string().optional(), ok: z.boolean().optional() });
  function withReview(
    checkpointer: MemoryCheckpointer,
    review: string,
    renamedNodes?: Record<string, string>,
  ) {
    return new StateGraph(State)
      .addNode('draft', () => ({ note: 'draft' }))
      .addNode(review, (_state, ctx) => ({ ok: ctx.interrupt<boolean>('publish?') }))
      .addEdge(START, 'draft')
      .addEdge('draft', review)
      .addEdge(review, END)
      .compile({ checkpointer, name: 'publish', ...(renamedNodes ? { renamedNodes } : {}) });
  }

  it('fails with a STATE_VERSION error naming the node without a mapping', async () => {
    const checkpointer = new MemoryCheckpointer();
    await withReview(checkpointer, 'review').run({}, { threadId: 't' });
    await expect(
      withReview(checkpointer, 'approve').invoke(new Command({ resume: true }), { threadId: 't' }),
    ).rejects.toMatchObject({
      code: 'STATE_VERSION',
      message: expect.stringMatching(/refers to node "review".*renamedNodes: \{ "review": "…" \}/),
    });
  });

  it('continues at the node renamedNodes names, answering the pending interrupt', async () => {
    const checkpointer = new MemoryCheckpointer();
    await withReview(checkpointer, 'review').run({}, { threadId: 't' });
    const app = withReview(checkpointer, 'approve', { review: 'approve' });
    expect((await app.getState('t'))?.next).toEqual(['approve']);
    expect(await app.invoke(new Command({ resume: true }), { threadId: 't' })).toEqual({
      note: 'draft',
      ok: true,
    });
  });

  it('refuses a mapping to a node the graph does not have', () => {
    expect(() => withReview(new MemoryCheckpointer(), 'approve', { review: 'nope' })).toThrow(
      /renamedNodes maps "review" to "nope"/,
    );
  });
});
