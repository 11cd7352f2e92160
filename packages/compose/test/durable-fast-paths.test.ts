// The per-step shortcuts of a `sync`-durable run on an in-memory store must store what the general path
// stores: a run on a plain MemoryCheckpointer (record handed over, checksum stamped by the store; a plain
// delta step handed over as a deferred checkpoint, its record made when first read) and the same run on a
// subclass that overrides `put` (record put as any store gets it) give the same records.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CheckpointRecord } from '../src/checkpoint/checkpointer.js';
import { materialize, payloadLength } from '../src/checkpoint/deferred-checkpoint.js';
import { payloadChecksum } from '../src/checkpoint/payload-checksum.js';
import { END, MemoryCheckpointer, START, StateGraph } from '../src/index.js';

// Counts the deferred checkpoints made into records, so the tests can show the lazy path ran.
vi.mock('../src/checkpoint/deferred-checkpoint.js', async (original) => {
  const module = await original<typeof import('../src/checkpoint/deferred-checkpoint.js')>();
  return { ...module, materialize: vi.fn(module.materialize), payloadLength: vi.fn(module.payloadLength) };
});

/** A MemoryCheckpointer the engine cannot hand records to: every record takes the general path. */
class GeneralPath extends MemoryCheckpointer {
  override async put(record: CheckpointRecord): Promise<void> {
    return super.put(record);
  }
}

const State = z.object({
  n: z.number(),
  at: z.date().optional(),
  note: z.string(),
  tags: z.array(z.string()),
});

function loop(checkpointer: MemoryCheckpointer, iterations = 4) {
  return new StateGraph(State)
    .addNode('a', (state) => ({ n: state.n + 1, note: `step "${state.n}" é\n${'x'.repeat(state.n % 7)}` }))
    .addNode('b', (state) => (state.n === 2 ? { at: new Date(state.n), tags: ['x'] } : {}))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addConditionalEdges('b', (state) => (state.n < iterations ? 'a' : END), ['a', END])
    .compile({ checkpointer, maxSteps: 1000 });
}

const ID = /[0-9a-z]{9}-[0-9a-z]{5}-[0-9a-z]{14}/g;

/** The thread's records, oldest first, with ids numbered by first appearance and no clock or checksum. */
async function normalized(store: MemoryCheckpointer, threadId: string): Promise<unknown[]> {
  const records = (await store.list(threadId)).reverse();
  const ids = new Map<string, string>();
  const text = JSON.stringify(records.map(({ checksum: _checksum, createdAt: _at, ...rest }) => rest));
  return JSON.parse(text.replace(ID, (id) => ids.get(id) ?? ids.set(id, `id${ids.size}`).get(id)!));
}

describe('durable fast paths on an in-memory store', () => {
  it('stores the same records as the general path, each with the checksum of its payload', async () => {
    const fast = new MemoryCheckpointer();
    const general = new GeneralPath();
    const input = { n: 0, note: '', tags: [] };
    expect(await loop(fast).invoke(input, { threadId: 't' })).toEqual(
      await loop(general).invoke(input, { threadId: 't' }),
    );
    const records = await fast.list('t');
    expect(records.length).toBeGreaterThan(8);
    for (const record of [...records, ...(await general.list('t'))])
      expect(record.checksum).toBe(payloadChecksum(record.payload));
    expect(await normalized(fast, 't')).toEqual(await normalized(general, 't'));
  });

  it('resumes and travels back from records whose checksum the store stamped', async () => {
    const fast = new MemoryCheckpointer();
    const app = loop(fast);
    await app.invoke({ n: 0, note: '', tags: [] }, { threadId: 't' });
    const history = await fast.list('t');
    const middle = history[Math.floor(history.length / 2)]!;
    const state = await app.getState('t', { checkpointId: middle.id });
    expect(state?.values.n).toBeLessThan(4);
    const replayed = await app.invoke(null, { threadId: 't', checkpointId: middle.id });
    expect(replayed).toMatchObject({ n: 4, at: new Date(2), tags: ['x'] });
  });

  it('makes a deferred checkpoint into the record the general path stores, whatever is read first', async () => {
    const made = vi.mocked(materialize);
    const input = { n: 0, note: '', tags: [] };
    const general = new GeneralPath();
    await loop(general, 200).invoke(input, { threadId: 't' });
    // Full snapshots among them (made deferred too), each followed by deltas.
    const snapshots = (await general.list('t')).filter((record) => record.baseId === record.id);
    expect(snapshots.length).toBeGreaterThan(4);
    const reads: Array<(store: MemoryCheckpointer) => Promise<unknown>> = [
      async (store) => store.storedBytes('t'),
      async (store) => (await store.list('t', { filter: { step: 3 } })).map((record) => record.step),
      async (store) => {
        const middle = (await store.list('t'))[5]!;
        const before = await store.list('t', { before: middle.id, limit: 2 });
        const byBase = await store.list('t', { baseId: middle.baseId });
        const latest = await store.get('t');
        return [before.length, byBase.length, latest?.checkpoint.step];
      },
    ];
    for (const read of reads) {
      made.mockClear();
      vi.mocked(payloadLength).mockClear();
      const fast = new MemoryCheckpointer();
      await loop(fast, 200).invoke(input, { threadId: 't' });
      expect(made).not.toHaveBeenCalled();
      // Full snapshots went the deferred way too: their payload's length counted, not made.
      expect(vi.mocked(payloadLength).mock.calls.length).toBeGreaterThan(snapshots.length / 2);
      // The first read goes through one of the paths that make the records; then everything is compared.
      expect(await read(fast)).toEqual(await read(general));
      expect(made).toHaveBeenCalled();
      expect(fast.storedBytes('t')).toBe(general.storedBytes('t'));
      expect(await normalized(fast, 't')).toEqual(await normalized(general, 't'));
      for (const record of await fast.list('t')) {
        expect(record.checksum).toBe(payloadChecksum(record.payload));
        const byId = await fast.get('t', { id: record.id });
        expect(byId?.checkpoint).toEqual(record);
      }
    }
  });

  it('stores a subgraph step deferred too, and its state reads back as on the general path', async () => {
    const Inner = z.object({ n: z.number(), note: z.string() });
    const inner = new StateGraph(Inner)
      .addNode('x', (state) => ({ n: state.n + 1 }))
      .addNode('y', (state) => ({ note: `${state.n}` }))
      .addEdge(START, 'x')
      .addEdge('x', 'y')
      .addEdge('y', END)
      .compile();
    const outer = (checkpointer: MemoryCheckpointer) =>
      new StateGraph(Inner)
        .addNode('inner', inner)
        .addNode('after', (state) => ({ n: state.n * 10 }))
        .addEdge(START, 'inner')
        .addEdge('inner', 'after')
        .addEdge('after', END)
        .compile({ checkpointer });
    const fast = new MemoryCheckpointer();
    const general = new GeneralPath();
    const input = { n: 1, note: '' };
    expect(await outer(fast).invoke(input, { threadId: 't' })).toEqual(
      await outer(general).invoke(input, { threadId: 't' }),
    );
    const [fastHistory, generalHistory] = await Promise.all(
      [fast, general].map(async (store) =>
        (await outer(store).getStateHistory('t')).map((state) => [state.values, state.next, state.metadata]),
      ),
    );
    expect(fastHistory).toEqual(generalHistory);
    expect(await normalized(fast, 't')).toEqual(await normalized(general, 't'));
    // Every namespace of the thread, the subgraph's included: the same bytes (rows made and counted).
    expect(fast.storedBytes('t')).toBe(general.storedBytes('t'));
  });
});
