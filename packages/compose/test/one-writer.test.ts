import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CheckpointConflictError,
  Command,
  END,
  MemoryCheckpointer,
  START,
  StateGraph,
} from '../src/index.js';

/** A promise and the function that resolves it. */
function gate(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** `ask` pauses for a decision, `act` counts a side effect; `act` waits for `release` once it started. */
function approvalGraph(
  saver: MemoryCheckpointer,
  effects: string[],
  started: () => void,
  release: Promise<void>,
) {
  return new StateGraph(z.object({ decision: z.string().default('') }))
    .addNode('ask', (_state, ctx) => ({ decision: ctx.interrupt<string>('approve?') }))
    .addNode('act', async (state) => {
      started();
      await release;
      effects.push(state.decision);
      return {};
    })
    .addEdge(START, 'ask')
    .addEdge('ask', 'act')
    .addEdge('act', END)
    .compile({ checkpointer: saver });
}

describe('one writer per thread', () => {
  it('two resumes of one paused thread: one runs, the other gets a conflict before any node runs', async () => {
    const saver = new MemoryCheckpointer();
    const effects: string[] = [];
    const running = gate();
    const release = gate();
    const app = approvalGraph(saver, effects, running.open, release.opened);
    await app.invoke({}, { threadId: 't' });
    const approve = app.invoke(new Command({ resume: 'approve' }), { threadId: 't' });
    await running.opened;
    const error = await app
      .invoke(new Command({ resume: 'reject' }), { threadId: 't' })
      .catch((caught: unknown) => caught);
    expect(CheckpointConflictError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CHECKPOINT_CONFLICT', threadId: 't' });
    release.open();
    await approve;
    expect(effects).toEqual(['approve']);
    const history = await app.getStateHistory('t');
    // input, ask (paused), ask+act: one line of history, no fork.
    expect(history.map((snapshot) => snapshot.parentId)).toEqual(
      history.map((_, index) => history[index + 1]?.checkpointId ?? null),
    );
  });

  it('two invokes racing on one thread: exactly one runs', async () => {
    const saver = new MemoryCheckpointer();
    const runs: number[] = [];
    const graph = new StateGraph(z.object({ n: z.number() }))
      .addNode('work', async (state) => {
        runs.push(state.n);
        await Promise.resolve();
        return { n: state.n + 1 };
      })
      .addEdge(START, 'work')
      .addEdge('work', END)
      .compile({ checkpointer: saver });
    const results = await Promise.allSettled([
      graph.invoke({ n: 1 }, { threadId: 'race' }),
      graph.invoke({ n: 10 }, { threadId: 'race' }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected');
    expect(CheckpointConflictError.isInstance(rejected?.reason)).toBe(true);
    expect(runs).toHaveLength(1);
    // The thread is free again once the winner finished.
    await graph.invoke({ n: 5 }, { threadId: 'race' });
    expect(runs).toHaveLength(2);
  });

  it('updateState racing a run gets a conflict, and the run is not disturbed', async () => {
    const saver = new MemoryCheckpointer();
    const effects: string[] = [];
    const running = gate();
    const release = gate();
    const app = approvalGraph(saver, effects, running.open, release.opened);
    await app.invoke({}, { threadId: 'u' });
    const run = app.invoke(new Command({ resume: 'approve' }), { threadId: 'u' });
    await running.opened;
    await expect(app.updateState('u', { decision: 'edited' })).rejects.toSatisfy(
      (error: unknown) => CheckpointConflictError.isInstance(error) && error.threadId === 'u',
    );
    release.open();
    expect(await run).toEqual({ decision: 'approve' });
    expect((await app.getState('u'))?.values).toEqual({ decision: 'approve' });
    // Once the run ended, the update goes through.
    await app.updateState('u', { decision: 'edited' });
    expect((await app.getState('u'))?.values).toEqual({ decision: 'edited' });
  });

  it('a checkpoint written over a moved head is refused (the seq fence behind the claim)', async () => {
    const saver = new MemoryCheckpointer();
    const graph = new StateGraph(z.object({ n: z.number() }))
      .addNode('inc', (state) => ({ n: state.n + 1 }))
      .addEdge(START, 'inc')
      .addEdge('inc', END)
      .compile({ checkpointer: saver });
    await graph.invoke({ n: 1 }, { threadId: 'f' });
    const head = (await saver.get('f'))?.checkpoint;
    expect(head?.seq).toBe(2);
    await saver.put({ ...head!, id: 'intruder', parentId: head!.id, seq: head!.seq + 1 });
    // The engine's own next checkpoint takes the position after the head it loaded: no clash, it moves on.
    await graph.invoke({ n: 7 }, { threadId: 'f' });
    const list = await saver.list('f');
    expect(list.map((record) => record.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(list[2]?.id).toBe('intruder');
  });
});
