import { expect, test } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { appendReducer, END, START, StateGraph } from '../src/index.js';

const steps = 1000;
const messageBytes = 1024;

/** Sum of stored payload lengths of the checkpoints whose step is in [from, to). */
function bytesBetween(records: ReadonlyArray<{ step: number; payload: string }>, from: number, to: number) {
  let total = 0;
  for (const record of records) if (record.step >= from && record.step < to) total += record.payload.length;
  return total;
}

test('a 1000-step thread that appends 1 KB per step stores O(change) per step, not O(history)', async () => {
  const saver = new MemoryCheckpointer();
  const app = new StateGraph(
    z.object({ messages: z.array(z.string()).default([]), turn: z.number().default(0) }),
    { reducers: { messages: appendReducer } },
  )
    .addNode('talk', (state) => ({
      messages: `${String(state.turn).padStart(4, '0')}${'x'.repeat(messageBytes - 4)}`,
      turn: state.turn + 1,
    }))
    .addEdge(START, 'talk')
    .addConditionalEdges('talk', (state) => (state.turn < steps ? 'talk' : END), ['talk', END])
    .compile({ checkpointer: saver, maxSteps: steps + 10 });

  const final = await app.invoke({}, { threadId: 'growth' });
  expect(final.turn).toBe(steps);
  expect(final.messages).toHaveLength(steps);

  const records = await saver.list('growth');
  expect(records).toHaveLength(steps + 1); // the input checkpoint and one per step
  const total = saver.storedBytes('growth');
  const history = steps * messageBytes;
  const first = bytesBetween(records, 0, 100);
  const last = bytesBetween(records, steps - 100, steps);
  const snapshots = records.filter((r) => r.baseId === r.id).length;
  console.log(
    `storage growth: ${steps} steps, total ${total} bytes stored (${(total / steps).toFixed(0)} bytes/step; ` +
      `state at the end ${history} bytes), ${snapshots} full snapshots; payload bytes of steps 0-99: ${first}, ` +
      `steps 900-999: ${last} (ratio ${(last / first).toFixed(2)})`,
  );
  expect(last).toBeLessThan(3 * first);
  // A checkpoint per step that stored the whole history would hold ~steps²/2 KB; deltas plus doubling
  // snapshots hold a small multiple of the history.
  expect(total).toBeLessThan(4 * history);

  // The deltas rebuild the same state: the latest checkpoint and a mid-thread one read back right.
  const state = await app.getState('growth');
  expect(state?.values).toEqual(final);
  const middle = records.find((r) => r.step === 700);
  const past = await app.getState('growth', { checkpointId: middle?.id as string });
  expect(past?.values.turn).toBe(701);
  expect(past?.values.messages).toEqual(final.messages.slice(0, 701));
});
