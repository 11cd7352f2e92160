import { describe, expect, it } from 'vitest';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { getContext } from '../func/context.js';
import { entrypoint } from '../func/entrypoint.js';
import { task } from '../func/task.js';

describe('ctx.effect in the functional API', () => {
  it('records effects of the body and of task calls once, with distinct keys, across a failed turn', async () => {
    const checkpointer = new MemoryCheckpointer();
    const sent: string[] = [];
    let failures = 1;
    const notify = task('notify', async (to: string) =>
      getContext().effect('email', (e) => {
        sent.push(`${to}:${e.idempotencyKey}`);
        return `mail-${sent.length}`;
      }),
    );
    const flow = entrypoint({ name: 'flow', checkpointer }, async (order: string) => {
      const charged = await getContext().effect('charge', (e) => {
        sent.push(`charge:${e.idempotencyKey}`);
        return `charge-${order}`;
      });
      const mails = [await notify('buyer'), await notify('seller')];
      if (failures-- > 0) throw new Error('crashed after the mails');
      return [charged, ...mails];
    });
    await expect(flow.invoke('o1', { threadId: 'f1' })).rejects.toThrow('crashed after the mails');
    expect(await flow.invoke(null, { threadId: 'f1' })).toEqual(['charge-o1', 'mail-2', 'mail-3']);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.slice(s.indexOf(':') + 1))).size).toBe(3);
  });
});
