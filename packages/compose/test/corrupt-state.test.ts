import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CheckpointCorruptError, Command, END, MemoryCheckpointer, START, StateGraph } from '../src/index.js';
import { payloadChecksum } from '../src/store/index.js';

/** `fast` finishes and `ask` pauses in the same step, so `fast`'s writes are saved as task writes. */
function approval(checkpointer: MemoryCheckpointer) {
  return new StateGraph(z.object({ log: z.array(z.string()).default([]) }), {
    reducers: { log: (current: string[], update: string[]) => [...current, ...update] },
  })
    .addNode('fast', () => ({ log: ['fast'] }))
    .addNode('ask', (_state, ctx) => ({ log: [ctx.interrupt<string>('ok?')] }))
    .addEdge(START, 'fast')
    .addEdge(START, 'ask')
    .addEdge('fast', END)
    .addEdge('ask', END)
    .compile({ checkpointer });
}

/** Copies every checkpoint and task write of a thread into a new store, passing task writes through `edit`. */
async function copyWithWrites(from: MemoryCheckpointer, threadId: string, edit: (payload: string) => string) {
  const copy = new MemoryCheckpointer();
  for (const record of (await from.list(threadId)).reverse()) {
    await copy.put(record);
    for (const write of (await from.get(threadId, { id: record.id }))!.writes)
      await copy.putWrites({ ...write, payload: edit(write.payload) });
  }
  return copy;
}

describe('corrupt state', () => {
  it('refuses task writes that changed at rest, naming the checkpoint and the task', async () => {
    const saver = new MemoryCheckpointer();
    await approval(saver).invoke({}, { threadId: 't' });
    const head = (await saver.get('t'))!;
    // fast's output and ask's pause, each stamped with its checksum.
    expect(head.writes).toHaveLength(2);
    for (const write of head.writes) expect(write.checksum).toBe(payloadChecksum(write.payload));
    const fast = head.writes.find((write) => write.payload.includes('"fast"'))!;
    const tampered = await copyWithWrites(saver, 't', (payload) => payload.replace('"fast"', '"slow"'));
    const error = await approval(tampered)
      .invoke(new Command({ resume: 'yes' }), { threadId: 't' })
      .catch((caught: unknown) => caught);
    expect(CheckpointCorruptError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'checksum',
      checkpointId: head.checkpoint.id,
      taskId: fast.taskId,
    });
    // The untouched copy resumes: fast's saved writes are used, fast does not run again.
    const done = await approval(await copyWithWrites(saver, 't', (payload) => payload)).invoke(
      new Command({ resume: 'yes' }),
      { threadId: 't' },
    );
    expect([...done.log].sort()).toEqual(['fast', 'yes']);
  });

  it('does not check keys whose schema transforms (the stored value is the output)', async () => {
    const saver = new MemoryCheckpointer();
    const app = new StateGraph(z.object({ size: z.string().transform((text) => text.length), n: z.number() }))
      .addNode('inc', (state) => ({ n: state.n + 1 }))
      .addEdge(START, 'inc')
      .addEdge('inc', END)
      .compile({ checkpointer: saver });
    // The input is parsed by the schema (so 'abc' becomes 3); its type is the state's value type.
    await app.invoke({ size: 'abc' as unknown as number, n: 0 }, { threadId: 't' });
    expect((await app.getState('t'))?.values).toEqual({ size: 3, n: 1 });
  });

  it('history stops at a damaged checkpoint with the same typed error', async () => {
    const saver = new MemoryCheckpointer();
    const app = new StateGraph(z.object({ n: z.number() }))
      .addNode('inc', (state) => ({ n: state.n + 1 }))
      .addEdge(START, 'inc')
      .addConditionalEdges('inc', (state) => (state.n < 3 ? 'inc' : END))
      .compile({ checkpointer: saver });
    await app.invoke({ n: 0 }, { threadId: 't' });
    const records = (await saver.list('t')).reverse();
    const damaged = new MemoryCheckpointer();
    for (const [index, record] of records.entries())
      await damaged.put(index === 1 ? { ...record, payload: `${record.payload} ` } : record);
    await expect(
      new StateGraph(z.object({ n: z.number() }))
        .addNode('inc', (state) => ({ n: state.n + 1 }))
        .addEdge(START, 'inc')
        .addEdge('inc', END)
        .compile({ checkpointer: damaged })
        .getStateHistory('t'),
    ).rejects.toMatchObject({ name: 'CheckpointCorruptError', checkpointId: records[1]!.id });
  });
});
