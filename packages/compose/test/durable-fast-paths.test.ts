// The per-step shortcuts of a `sync`-durable run on an in-memory store must store what the general path
// stores: a run on a plain MemoryCheckpointer (record handed over, checksum stamped by the store) and the
// same run on a subclass that overrides `put` (record put as any store gets it) give the same records.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CheckpointRecord } from '../src/checkpoint/checkpointer.js';
import { payloadChecksum } from '../src/checkpoint/payload-checksum.js';
import { END, MemoryCheckpointer, START, StateGraph } from '../src/index.js';

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

function loop(checkpointer: MemoryCheckpointer) {
  return new StateGraph(State)
    .addNode('a', (state) => ({ n: state.n + 1, note: `step "${state.n}" é\n` }))
    .addNode('b', (state) => (state.n === 2 ? { at: new Date(state.n), tags: ['x'] } : {}))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addConditionalEdges('b', (state) => (state.n < 4 ? 'a' : END), ['a', END])
    .compile({ checkpointer });
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
});
