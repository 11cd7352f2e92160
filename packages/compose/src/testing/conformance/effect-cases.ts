import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import type { EffectFence } from '../../effects/effect-fence.js';
import { StateGraph } from '../../graph/state-graph.js';
import { END, START } from '../../vocabulary/constants.js';
import type { StoreAccessor } from './records.js';

const State = z.object({
  order: z.string(),
  receipt: z.string().optional(),
  shipped: z.boolean().optional(),
});

/** A charge (an effect) that may fail after it ran, then a shipping step. */
function chargeGraph(checkpointer: Checkpointer, calls: string[], failAfter: { n: number }) {
  return new StateGraph(State)
    .addNode('charge', async (s, ctx) => {
      const receipt = await ctx.effect('charge', ({ idempotencyKey }) => {
        calls.push(idempotencyKey);
        return `receipt-${calls.length}-${s.order}`;
      });
      if (failAfter.n-- > 0) throw new Error('crashed after the charge');
      return { receipt };
    })
    .addNode('ship', () => ({ shipped: true }))
    .addEdge(START, 'charge')
    .addEdge('charge', 'ship')
    .addEdge('ship', END)
    .compile({ checkpointer });
}

/**
 * Conformance cases for effects (`ctx.effect`, ADR 035): a store keeps an effect's record (a task write
 * of kind `call`) so that continuing the thread after a failure gets the recorded result under the same
 * idempotency key, a fenced run records nothing, and a replay from an older checkpoint does not repeat it.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * describeEffectCases(() => checkpointer);
 * ```
 */
export function describeEffectCases(store: StoreAccessor): void {
  describe('effects: recorded once, fenced, kept through replays', () => {
    it('gives a continued thread the recorded result instead of calling again', async () => {
      const calls: string[] = [];
      const app = chargeGraph(store(), calls, { n: 1 });
      await expect(app.invoke({ order: 'o1' }, { threadId: 'e1' })).rejects.toThrow(
        'crashed after the charge',
      );
      const done = await app.invoke(null, { threadId: 'e1' });
      expect(done).toMatchObject({ receipt: 'receipt-1-o1', shipped: true });
      expect(calls).toHaveLength(1);
    });

    it('records nothing for a fenced run, and the owner repeats the effect under the same key', async () => {
      const calls: string[] = [];
      let held = false;
      const fence: EffectFence = {
        check: async () => {
          if (!held) throw new Error('lost the thread');
        },
      };
      const app = chargeGraph(store(), calls, { n: 0 });
      const error = await app.invoke({ order: 'o2' }, { threadId: 'e2', fence }).catch((e: unknown) => e);
      expect((error as { cause?: unknown }).cause).toMatchObject({ code: 'EFFECT_FENCED' });
      held = true;
      const done = await app.invoke(null, { threadId: 'e2', fence });
      expect(done).toMatchObject({ receipt: 'receipt-2-o2', shipped: true });
      expect(calls).toHaveLength(2);
      expect(calls[1]).toBe(calls[0]);
    });

    it('is not repeated by a replay from the checkpoint before it', async () => {
      const calls: string[] = [];
      const app = chargeGraph(store(), calls, { n: 0 });
      await app.invoke({ order: 'o3' }, { threadId: 'e3' });
      const history = await app.getStateHistory('e3');
      const before = history.find((snapshot) => snapshot.next.includes('charge'));
      const replayed = await app.invoke(null, {
        threadId: 'e3',
        checkpointId: before?.checkpointId as string,
      });
      expect(replayed).toMatchObject({ receipt: 'receipt-1-o3', shipped: true });
      expect(calls).toHaveLength(1);
    });
  });
}
