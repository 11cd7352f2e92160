import { z } from 'zod';
import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import { StateGraph } from '../../graph/state-graph.js';
import { END, START } from '../../vocabulary/constants.js';

/** Where the effect crash child kills itself with SIGKILL (`none`: it runs to the end). */
export type EffectKillPoint = 'before-call' | 'after-call' | 'after-record' | 'during-checkpoint' | 'none';

/**
 * Every kill point of the matrix, in the order an effect passes them.
 *
 * @example
 * ```ts
 * for (const point of effectKillPoints) console.log(point); // before-call, after-call, after-record, during-checkpoint
 * ```
 */
export const effectKillPoints: readonly Exclude<EffectKillPoint, 'none'>[] = [
  'before-call',
  'after-call',
  'after-record',
  'during-checkpoint',
];

const OrderState = z.object({
  order: z.string(),
  receipt: z.string().optional(),
  mail: z.string().optional(),
  shipped: z.boolean().optional(),
});

/** The final state of an order the kill graph processed, given the ids the external system answered. */
export type EffectKillState = z.infer<typeof OrderState>;

/**
 * Kills this process at once: no handler, no flush, no `finally` (what a crash or `kill -9` does).
 *
 * @example
 * ```ts
 * if (process.env.CRASH_HERE === '1') killNow();
 * ```
 */
export function killNow(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL was sent');
}

/** POSTs to the external system with the effect's idempotency key; resolves with the id it answered. */
async function post(base: string, path: string, key: string, body: unknown): Promise<string> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * The order graph of the effect kill matrix: `charge` (an effect: a POST to the external system's
 * `/charges`) → `notify` (an effect: `/emails`) → `ship`. With `kill` set, the process kills itself at
 * that point of the charge (once: the process dies). `during-checkpoint` kills right after the store
 * was asked to put the checkpoint of the charge's step, before it answered.
 *
 * @example
 * ```ts
 * const app = buildEffectKillGraph(new MemoryCheckpointer(), 'http://127.0.0.1:8080', 'none');
 * await app.invoke({ order: 'order-1' }, { threadId: 'order-1' }); // { order, receipt, mail, shipped: true }
 * ```
 */
export function buildEffectKillGraph(checkpointer: Checkpointer, base: string, kill: EffectKillPoint) {
  let chargeStep: number | undefined;
  const store: Checkpointer =
    kill === 'during-checkpoint'
      ? new Proxy(checkpointer, {
          get(target, property) {
            const value: unknown = Reflect.get(target, property, target);
            // Methods run on the store itself (its private fields are not the proxy's).
            if (property !== 'put') return typeof value === 'function' ? value.bind(target) : value;
            return (record: Parameters<Checkpointer['put']>[0]) => {
              const stored = target.put(record);
              if (record.step === chargeStep) {
                stored.catch(() => undefined);
                killNow();
              }
              return stored;
            };
          },
        })
      : checkpointer;
  return new StateGraph(OrderState)
    .addNode('charge', async (s, ctx) => {
      const receipt = await ctx.effect('charge', async ({ idempotencyKey }) => {
        if (kill === 'before-call') killNow();
        const id = await post(base, '/charges', idempotencyKey, { order: s.order, cents: 500 });
        if (kill === 'after-call') killNow();
        return id;
      });
      if (kill === 'after-record') killNow();
      chargeStep = ctx.step;
      return { receipt };
    })
    .addNode('notify', async (s, ctx) => ({
      mail: await ctx.effect('email', ({ idempotencyKey }) =>
        post(base, '/emails', idempotencyKey, { order: s.order, receipt: s.receipt }),
      ),
    }))
    .addNode('ship', () => ({ shipped: true }))
    .addEdge(START, 'charge')
    .addEdge('charge', 'notify')
    .addEdge('notify', 'ship')
    .addEdge('ship', END)
    .compile({ checkpointer: store });
}
