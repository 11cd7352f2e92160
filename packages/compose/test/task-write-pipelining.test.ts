import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { type Checkpointer, END, START, StateGraph } from '../src/index.js';

/**
 * A store whose task writes wait at a gate; it logs when each call starts and ends. With `openOnPut`,
 * putting that step's checkpoint opens the gate: a session that waited for the task write before
 * putting the checkpoint would never finish (the test fails by its timeout).
 */
function gatedStore(openOnPut?: number) {
  const inner = new MemoryCheckpointer();
  const log: string[] = [];
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let failWrites = false;
  const store: Checkpointer = {
    put: async (record) => {
      log.push(`put ${record.step}`);
      await inner.put(record);
      if (record.step === openOnPut) open();
    },
    putWrites: async (record) => {
      log.push('writes start');
      await gate;
      if (failWrites) throw new Error('writes down');
      await inner.putWrites(record);
      log.push('writes end');
    },
    get: (threadId, options) => inner.get(threadId, options),
    list: (threadId, options) => inner.list(threadId, options),
    deleteThread: (threadId) => inner.deleteThread(threadId),
    claimThread: (threadId) => inner.claimThread(threadId),
  };
  return { store, log, inner, open, failNextWrites: () => (failWrites = true) };
}

function oneStep(checkpointer: Checkpointer, ran: string[]) {
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('work', (state) => {
      ran.push('work');
      return { n: state.n + 1 };
    })
    .addEdge(START, 'work')
    .addEdge('work', END)
    .compile({ checkpointer });
}

describe("taskWrites: 'all' stores a step's task writes beside its checkpoint", () => {
  it('puts the checkpoint while the task write is in flight; the run ends once both are stored', async () => {
    const { store, log, inner } = gatedStore(0);
    const ran: string[] = [];
    const output = await oneStep(store, ran).invoke({ n: 1 }, { threadId: 't', taskWrites: 'all' });
    expect(output).toEqual({ n: 2 });
    // Step 0's checkpoint was put before its task write was stored, and the run waited for both.
    expect(log).toEqual(['put -1', 'writes start', 'put 0', 'writes end']);
    const [head] = await inner.list('t', { limit: 1 });
    expect(head?.step).toBe(0);
    expect(await inner.get('t', { id: head?.parentId ?? '' })).toMatchObject({
      writes: [expect.objectContaining({ taskId: expect.any(String) })],
    });
  });

  it('fails the run when the task write fails, and the stored checkpoint means the task does not run again', async () => {
    const { store, inner, open, failNextWrites } = gatedStore();
    const ran: string[] = [];
    const app = oneStep(store, ran);
    failNextWrites();
    const running = app.invoke({ n: 1 }, { threadId: 't', taskWrites: 'all' });
    open();
    await expect(running).rejects.toThrow('writes down');
    // Step 0's checkpoint went in beside the failed write: continuing finds the run finished.
    const [head] = await inner.list('t', { limit: 1 });
    expect(head?.step).toBe(0);
    expect(await app.invoke(null, { threadId: 't', taskWrites: 'all' })).toEqual({ n: 2 });
    expect(ran).toEqual(['work']);
  });
});
