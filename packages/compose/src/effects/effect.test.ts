import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Checkpointer, TaskWritesRecord } from '../checkpoint/checkpointer.js';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { WeftError } from '../errors/weft-error.js';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import type { EffectFence } from './effect-fence.js';
import type { EffectRecorder } from './effect-recorder.js';

const State = z.object({ order: z.string(), log: z.array(z.string()).default([]) });

/** An external system that applies each idempotency key once, and counts every request. */
class Ledger {
  readonly requests: string[] = [];
  readonly applied = new Map<string, string>();

  charge(key: string, order: string): string {
    this.requests.push(key);
    const known = this.applied.get(key);
    if (known) return known;
    const receipt = `receipt-${this.applied.size + 1}-${order}`;
    this.applied.set(key, receipt);
    return receipt;
  }
}

interface Harness {
  readonly ledger: Ledger;
  /** Fails the node after its effect while it is above zero (counts down). */
  failAfter: number;
  /** Keys seen by the effect function, in call order. */
  readonly keys: string[];
}

function harness(): Harness {
  return { ledger: new Ledger(), failAfter: 0, keys: [] };
}

/** `charge` (an effect, then maybe a failure) → `ship`. */
function chargeGraph(checkpointer: Checkpointer, h: Harness, retry?: { maxAttempts: number }) {
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode(
      'charge',
      async (s, ctx) => {
        const receipt = await ctx.effect('charge', ({ idempotencyKey }) => {
          h.keys.push(idempotencyKey);
          return h.ledger.charge(idempotencyKey, s.order);
        });
        if (h.failAfter > 0) {
          h.failAfter -= 1;
          throw new Error('crashed after the charge');
        }
        return { log: [receipt] };
      },
      retry ? { retry: { ...retry, initialDelayMs: 0, jitter: false } } : {},
    )
    .addNode('ship', (s) => ({ log: [`shipped ${s.order}`] }))
    .addEdge(START, 'charge')
    .addEdge('charge', 'ship')
    .addEdge('ship', END)
    .compile({ checkpointer });
}

describe('ctx.effect', () => {
  it('runs once when the task fails after it and the thread is continued', async () => {
    const checkpointer = new MemoryCheckpointer();
    const h = harness();
    h.failAfter = 1;
    const app = chargeGraph(checkpointer, h);
    await expect(app.invoke({ order: 'o1' }, { threadId: 't1' })).rejects.toThrow('crashed after the charge');
    const done = await chargeGraph(checkpointer, h).invoke(null, { threadId: 't1' });
    expect(done.log).toEqual(['receipt-1-o1', 'shipped o1']);
    expect(h.keys).toHaveLength(1);
    expect(h.ledger.requests).toHaveLength(1);
  });

  it('runs once across the retries of its node', async () => {
    const h = harness();
    h.failAfter = 2;
    const done = await chargeGraph(new MemoryCheckpointer(), h, { maxAttempts: 3 }).invoke(
      { order: 'o2' },
      { threadId: 't2' },
    );
    expect(done.log).toEqual(['receipt-1-o2', 'shipped o2']);
    expect(h.ledger.requests).toHaveLength(1);
  });

  it('runs once per attempt without a checkpointer, and retries get the recorded result', async () => {
    const h = harness();
    h.failAfter = 1;
    const app = new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode(
        'charge',
        async (s, ctx) => {
          const receipt = await ctx.effect('charge', (e) => h.ledger.charge(e.idempotencyKey, s.order));
          if (h.failAfter-- > 0) throw new Error('flaky');
          return { log: [receipt] };
        },
        { retry: { maxAttempts: 2, initialDelayMs: 0 } },
      )
      .addEdge(START, 'charge')
      .addEdge('charge', END)
      .compile();
    expect((await app.invoke({ order: 'o3' })).log).toEqual(['receipt-1-o3']);
    expect(h.ledger.requests).toHaveLength(1);
  });

  it('gives each effect of a task its own key, stable per position and distinct per thread', async () => {
    const keys: string[] = [];
    const app = new StateGraph(State, { reducers: { log: appendReducer } })
      .addNode('mail', async (_s, ctx) => {
        for (const to of ['a', 'b']) await ctx.effect('email', (e) => keys.push(`${to}:${e.idempotencyKey}`));
        await ctx.effect('email', (e) => keys.push(`own:${e.idempotencyKey}`), { key: 'line-7' });
        return {};
      })
      .addEdge(START, 'mail')
      .addEdge('mail', END)
      .compile({ checkpointer: new MemoryCheckpointer() });
    await app.invoke({ order: 'x' }, { threadId: 'k1' });
    await app.invoke({ order: 'x' }, { threadId: 'k2' });
    const bare = keys.map((k) => k.slice(k.indexOf(':') + 1));
    expect(new Set(bare).size).toBe(6);
    for (const key of bare) expect(key).toMatch(/^weft-[0-9a-f]{40}$/);
  });

  it('does not run again when the node resumes after an interrupt', async () => {
    const checkpointer = new MemoryCheckpointer();
    const h = harness();
    const build = () =>
      new StateGraph(State, { reducers: { log: appendReducer } })
        .addNode('charge', async (s, ctx) => {
          const receipt = await ctx.effect('charge', (e) => h.ledger.charge(e.idempotencyKey, s.order));
          const ok = ctx.interrupt<boolean>('ship it?');
          return { log: [`${receipt}:${ok}`] };
        })
        .addEdge(START, 'charge')
        .addEdge('charge', END)
        .compile({ checkpointer });
    expect((await build().run({ order: 'o4' }, { threadId: 'p' })).status).toBe('interrupted');
    const done = await build().invoke(new Command({ resume: true }), { threadId: 'p' });
    expect(done.log).toEqual(['receipt-1-o4:true']);
    expect(h.ledger.requests).toHaveLength(1);
  });

  it('fails as EFFECT_FENCED, recording nothing, when the run lost its thread; the owner repeats it under the same key', async () => {
    const checkpointer = new MemoryCheckpointer();
    const h = harness();
    let held = false;
    const fence: EffectFence = {
      check: async () => {
        if (!held) throw new Error('lease of thread "f" taken by worker 2');
      },
    };
    const error = await chargeGraph(checkpointer, h)
      .invoke({ order: 'o5' }, { threadId: 'f', fence })
      .catch((e: unknown) => e);
    expect(WeftError.isInstance(error)).toBe(true);
    const cause = (error as { cause?: unknown }).cause;
    expect(cause).toMatchObject({ code: 'EFFECT_FENCED' });
    expect(String((cause as Error).message)).toContain('taken by worker 2');
    held = true;
    const done = await chargeGraph(checkpointer, h).invoke(null, { threadId: 'f', fence });
    expect(done.log).toEqual(['receipt-1-o5', 'shipped o5']);
    // Two requests under one key: the external system applied it once.
    expect(h.ledger.requests).toHaveLength(2);
    expect(new Set(h.ledger.requests).size).toBe(1);
    expect(h.ledger.applied.size).toBe(1);
  });

  it('is not repeated by a replay from an older checkpoint, and is by a fork made with updateState', async () => {
    const checkpointer = new MemoryCheckpointer();
    const h = harness();
    const app = chargeGraph(checkpointer, h);
    await app.invoke({ order: 'o6' }, { threadId: 'tt' });
    const history = await app.getStateHistory('tt');
    const beforeCharge = history.find((snapshot) => snapshot.next.includes('charge'));
    expect(beforeCharge).toBeDefined();
    const checkpointId = beforeCharge?.checkpointId as string;
    const replayed = await app.invoke(null, { threadId: 'tt', checkpointId });
    expect(replayed.log).toEqual(['receipt-1-o6', 'shipped o6']);
    expect(h.ledger.requests).toHaveLength(1);
    // Asking for it: a fork with new values starts from a new checkpoint, so the effect runs again.
    await app.updateState('tt', { order: 'o6-bis' }, { checkpointId });
    const forked = await app.invoke(null, { threadId: 'tt' });
    expect(forked.log).toEqual(['receipt-2-o6-bis', 'shipped o6-bis']);
    expect(new Set(h.ledger.requests).size).toBe(2);
  });

  it('is not repeated when a run cancelled mid-step (a double-text rolling it back) is continued', async () => {
    const checkpointer = new MemoryCheckpointer();
    const h = harness();
    const controller = new AbortController();
    let recorded: () => void = () => {};
    const effectDone = new Promise<void>((resolve) => {
      recorded = resolve;
    });
    const build = (hold: boolean) =>
      new StateGraph(State, { reducers: { log: appendReducer } })
        .addNode('charge', async (s, ctx) => {
          const receipt = await ctx.effect('charge', (e) => h.ledger.charge(e.idempotencyKey, s.order));
          if (hold) {
            recorded();
            await new Promise((_resolve, reject) =>
              ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
            );
          }
          return { log: [receipt] };
        })
        .addEdge(START, 'charge')
        .addEdge('charge', END)
        .compile({ checkpointer });
    const first = build(true).invoke({ order: 'o7' }, { threadId: 'dt', signal: controller.signal });
    await effectDone;
    controller.abort(new Error('a newer message arrived'));
    await expect(first).rejects.toThrow();
    const done = await build(false).invoke(null, { threadId: 'dt' });
    expect(done.log).toEqual(['receipt-1-o7']);
    expect(h.ledger.requests).toHaveLength(1);
  });

  it('lets a store that records effects itself (EffectRecorder) store them, with the run fence', async () => {
    const fence: EffectFence = { check: async () => undefined };
    const seen: Array<{ taskId: string; fence: EffectFence | undefined }> = [];
    class RecordingStore extends MemoryCheckpointer implements EffectRecorder {
      async recordEffect(record: TaskWritesRecord, given: EffectFence | undefined): Promise<void> {
        seen.push({ taskId: record.taskId, fence: given });
        await this.putWrites(record);
      }
    }
    const h = harness();
    h.failAfter = 1;
    const checkpointer = new RecordingStore();
    await expect(
      chargeGraph(checkpointer, h).invoke({ order: 'o8' }, { threadId: 'r', fence }),
    ).rejects.toThrow();
    const done = await chargeGraph(checkpointer, h).invoke(null, { threadId: 'r', fence });
    expect(done.log).toEqual(['receipt-1-o8', 'shipped o8']);
    expect(h.ledger.requests).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.taskId).toMatch(/:charge:0\/effect:charge#0$/);
    expect(seen[0]?.fence).toBe(fence);
  });

  it('rejects an empty name or key with INVALID_ARGUMENT naming the node', async () => {
    const app = new StateGraph(State)
      .addNode('bad', async (_s, ctx) => {
        await ctx.effect('', () => 1);
        return {};
      })
      .addEdge(START, 'bad')
      .addEdge('bad', END)
      .compile();
    const error = await app.invoke({ order: 'x' }).catch((e: unknown) => e);
    expect((error as { cause?: unknown }).cause).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(String((error as { cause: Error }).cause.message)).toContain('node "bad"');
  });
});
