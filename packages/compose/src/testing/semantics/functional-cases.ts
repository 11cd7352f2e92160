import { describe, expect, it } from 'vitest';
import { type EntrypointContext, entrypoint, interrupt, task } from '../../func/index.js';
import { Command } from '../../vocabulary/command.js';
import { newThread, type StoreOf } from './threads.js';

/** Counts the calls of each task (a task's side effect). */
function counted() {
  const calls: Record<string, number> = {};
  const count = (name: string): void => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  return { calls, count };
}

/** Issue 15 bullet 1: the functional API's results, pauses and saves live in the store. */
export function describeFunctionalCases(store: StoreOf): void {
  describe('functional API (entrypoint and task)', () => {
    it('a resumed run skips the tasks that finished before an interrupt() in the body', async () => {
      const threadId = newThread('func-resume');
      const { calls, count } = counted();
      const draft = task('draft', async (topic: string) => {
        count('draft');
        return `essay on ${topic}`;
      });
      const polish = task('polish', (essay: string) => {
        count('polish');
        return essay.toUpperCase();
      });
      const review = entrypoint({ name: 'review', checkpointer: store() }, async (topic: string, ctx) => {
        const essay = await draft(topic);
        const verdict = ctx.interrupt<string>({ question: 'ok?', essay });
        return { essay: await polish(essay), verdict };
      });
      const paused = await review.run('cats', { threadId });
      expect(paused.status).toBe('interrupted');
      expect(paused.interrupts.map((i) => i.value)).toEqual([{ question: 'ok?', essay: 'essay on cats' }]);
      // A fresh compile on the same store: the result comes from the checkpoint, not from memory.
      const again = entrypoint({ name: 'review', checkpointer: store() }, async (topic: string, ctx) => {
        const essay = await draft(topic);
        const verdict = ctx.interrupt<string>({ question: 'ok?', essay });
        return { essay: await polish(essay), verdict };
      });
      const done = await again.invoke(new Command({ resume: 'yes' }), { threadId });
      expect(done).toEqual({ essay: 'ESSAY ON CATS', verdict: 'yes' });
      expect(calls).toEqual({ draft: 1, polish: 1 });
      const state = await again.getState(threadId);
      expect(state?.values).toEqual({ essay: 'ESSAY ON CATS', verdict: 'yes' });
      expect(state?.next).toEqual([]);
    });

    it('parallel tasks pause together, a finished sibling is kept, one resume map answers every pause', async () => {
      const threadId = newThread('func-parallel');
      const { calls, count } = counted();
      const fetchDoc = task('fetch', async (id: number) => {
        count(`fetch${id}`);
        return `doc${id}`;
      });
      const approve = task('approve', (doc: string) => {
        count(`approve:${doc}`);
        return doc === 'doc3' ? true : interrupt<boolean>({ approve: doc });
      });
      const flow = entrypoint({ name: 'flow', checkpointer: store() }, async (ids: number[]) => {
        const docs = await Promise.all(ids.map((id) => fetchDoc(id)));
        const approved = await Promise.all(docs.map((doc) => approve(doc)));
        return docs.filter((_, i) => approved[i]);
      });
      const paused = await flow.run([1, 2, 3], { threadId });
      expect(paused.status).toBe('interrupted');
      expect(paused.interrupts.map((i) => i.value)).toEqual([{ approve: 'doc1' }, { approve: 'doc2' }]);
      const [first, second] = paused.interrupts.map((i) => i.id);
      const state = await flow.getState(threadId);
      expect(state?.interrupts.map((i) => i.id)).toEqual([first, second]);
      const done = await flow.invoke(
        new Command({ resume: { [first as string]: true, [second as string]: false } }),
        { threadId },
      );
      expect(done).toEqual(['doc1', 'doc3']);
      expect(calls).toEqual({
        fetch1: 1,
        fetch2: 1,
        fetch3: 1,
        'approve:doc1': 2,
        'approve:doc2': 2,
        'approve:doc3': 1,
      });
    });

    it('entrypoint.final returns one value and saves another, read as ctx.previous on the next turn', async () => {
      const threadId = newThread('func-final');
      const counter = entrypoint(
        { name: 'counter', checkpointer: store() },
        async (n: number, ctx: EntrypointContext<number>) => {
          const total = (ctx.previous ?? 0) + n;
          return entrypoint.final({ value: `was ${ctx.previous ?? 'nothing'}`, save: total });
        },
      );
      expect(await counter.invoke(3, { threadId })).toBe('was nothing');
      expect(await counter.invoke(4, { threadId })).toBe('was 3');
      expect(await counter.invoke(1, { threadId })).toBe('was 7');
      // A plain return value is also what the next turn reads.
      const echo = entrypoint({ name: 'echo', checkpointer: store() }, async (word: string, ctx) => ({
        word,
        before: ctx.previous,
      }));
      const other = newThread('func-previous');
      await echo.invoke('a', { threadId: other });
      expect(await echo.invoke('b', { threadId: other })).toEqual({ word: 'b', before: { word: 'a' } });
      // A save of undefined is stored as such: the next turn starts without a previous value.
      const forget = entrypoint({ name: 'forget', checkpointer: store() }, async (n: number, ctx) =>
        entrypoint.final({ value: ctx.previous, save: n > 1 ? undefined : n }),
      );
      const third = newThread('func-forget');
      expect(await forget.invoke(1, { threadId: third })).toBeUndefined();
      expect(await forget.invoke(2, { threadId: third })).toBe(1);
      expect(await forget.invoke(3, { threadId: third })).toBeUndefined();
    });

    it('getState and getStateHistory show the return value; the history has a checkpoint per turn and step', async () => {
      const threadId = newThread('func-history');
      const double = task('double', (n: number) => n * 2);
      const app = entrypoint({ name: 'app', checkpointer: store() }, async (n: number) => double(n));
      await app.invoke(1, { threadId });
      await app.invoke(5, { threadId });
      expect((await app.getState(threadId))?.values).toBe(10);
      const history = await app.getStateHistory(threadId);
      expect(history.map((state) => [state.source, state.values])).toEqual([
        ['loop', 10],
        ['input', 2],
        ['loop', 2],
        ['input', undefined],
      ]);
    });
  });
}
