import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const Log = z.object({ log: z.array(z.string()).default([]), note: z.string().default('') });
const reducers = { reducers: { log: appendReducer } };

/** `start → [left, right] → end`; `left` and `right` each ask (or only `left` with `one`). */
function askingGraph(store: StoreOf | undefined, one = false) {
  const asks = (name: string) => (_state: unknown, ctx: NodeContext) => ({
    log: `${name}=${JSON.stringify(ctx.interrupt(`${name}?`))}`,
  });
  return new StateGraph(Log, reducers)
    .addNode('start', () => ({ log: 'start' }))
    .addNode('left', asks('left'))
    .addNode('right', one ? () => ({ log: 'right' }) : asks('right'))
    .addNode('end', () => ({ log: 'end' }))
    .addEdge(START, 'start')
    .addEdge('start', 'left')
    .addEdge('start', 'right')
    .addEdge(['left', 'right'], 'end')
    .addEdge('end', END)
    .compile(store ? { checkpointer: store() } : {});
}

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: { code?: string; message: string }) => error,
  );
}

/** Bullets 5, 6 and 7: Command input, interrupts without a checkpointer, resume validation. */
export function describeResumeCases(store: StoreOf): void {
  describe('Command as run input', () => {
    it('applies update and routes to goto on a finished thread', async () => {
      const app = askingGraph(store, true);
      const threadId = newThread('cmd-finished');
      await app.invoke({}, { threadId });
      await app.invoke(new Command({ resume: 'yes' }), { threadId });
      const out = await app.invoke(new Command({ update: { note: 'again' }, goto: 'end' }), { threadId });
      expect(out).toEqual({ log: ['start', 'left="yes"', 'right', 'end', 'end'], note: 'again' });
    });

    it('applies update and goto together with resume', async () => {
      const app = askingGraph(store, true);
      const threadId = newThread('cmd-resume');
      await app.invoke({}, { threadId });
      const out = await app.invoke(new Command({ resume: 'ok', update: { note: 'n' }, goto: 'end' }), {
        threadId,
      });
      // `end` runs with the resumed `left` (goto), then once more after the join; a step's writes apply in
      // task order.
      expect(out).toEqual({ log: ['start', 'left="ok"', 'right', 'end', 'end'], note: 'n' });
      const state = await app.getState(threadId);
      expect(state?.next).toEqual([]);
    });

    it('works on a thread stopped at a static breakpoint', async () => {
      const app = askingGraph(undefined, true).withOptions({
        checkpointer: store(),
        interruptBefore: ['end'],
      });
      const threadId = newThread('cmd-breakpoint');
      await app.invoke({}, { threadId });
      const paused = await app.run(new Command({ resume: 'ok' }), { threadId });
      expect(paused.output).toMatchObject({ log: ['start', 'left="ok"', 'right'] });
      expect((await app.getState(threadId))?.next).toEqual(['end']);
      const out = await app.invoke(new Command({ update: { log: 'edited' }, goto: 'start' }), { threadId });
      // The planned `end` and the goto target `start` run (in task order); `start` leads to `left`, which
      // asks again, and `right`, whose write shows in the paused state.
      expect(out).toMatchObject({ log: ['start', 'left="ok"', 'right', 'edited', 'end', 'start', 'right'] });
      expect((await app.getState(threadId))?.interrupts.map((i) => i.value)).toEqual(['left?']);
    });
  });

  describe('interrupt() without a checkpointer', () => {
    it('rejects with a typed error naming the node, instead of a pause nobody can resume', async () => {
      const app = askingGraph(undefined, true);
      const error = await rejection(app.invoke({}));
      expect(error).toMatchObject({ code: 'INTERRUPTED' });
      expect(error.message).toContain('"left"');
      expect(error.message).toContain('checkpointer');
    });
  });

  describe('resume validation', () => {
    it('Command({ resume }) with no pending interrupt is an error listing none', async () => {
      const app = askingGraph(store, true);
      const threadId = newThread('resume-none');
      await app.invoke({}, { threadId });
      await app.invoke(new Command({ resume: 'yes' }), { threadId });
      const error = await rejection(app.invoke(new Command({ resume: 'again' }), { threadId }));
      expect(error).toMatchObject({ code: 'INVALID_RESUME' });
      expect(error.message).toContain('pending: none');
    });

    it('a resume map naming no pending interrupt is an error listing the pending ids', async () => {
      const app = askingGraph(store, true);
      const threadId = newThread('resume-unknown');
      const paused = await app.run({}, { threadId });
      const [pending] = paused.interrupts;
      const stale = `${pending?.taskId.replace(/^[^:]+/, 'x0')}:0`;
      const error = await rejection(app.invoke(new Command({ resume: { [stale]: 'yes' } }), { threadId }));
      expect(error).toMatchObject({ code: 'INVALID_RESUME' });
      expect(error.message).toContain(stale);
      expect(error.message).toContain(pending?.id as string);
      // Nothing ran: the question is still open and answerable.
      expect((await app.getState(threadId))?.interrupts.map((i) => i.id)).toEqual([pending?.id]);
      const done = await app.invoke(new Command({ resume: { [pending?.id as string]: 'yes' } }), {
        threadId,
      });
      expect(done.log).toContain('left="yes"');
    });

    it('a plain value while several interrupts are pending is an error listing them', async () => {
      const app = askingGraph(store);
      const threadId = newThread('resume-several');
      const paused = await app.run({}, { threadId });
      expect(paused.interrupts).toHaveLength(2);
      const error = await rejection(app.invoke(new Command({ resume: 'yes' }), { threadId }));
      expect(error).toMatchObject({ code: 'INVALID_RESUME' });
      for (const interrupt of paused.interrupts) expect(error.message).toContain(interrupt.id);
    });

    it('an object answer whose keys are not interrupt ids answers the single pending interrupt', async () => {
      const app = askingGraph(store, true);
      const threadId = newThread('resume-object');
      await app.invoke({}, { threadId });
      const done = await app.invoke(new Command({ resume: { approve: true } }), { threadId });
      expect(done.log).toContain('left={"approve":true}');
    });
  });
}
