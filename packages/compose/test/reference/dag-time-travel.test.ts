// ADR 023, point 6 ("paused nodes ask again unless the call answers them") and the Pregel-mode rule it
// mirrors: `Command({ resume })` given with an older pause checkpoint's id answers that checkpoint's
// pauses on a fork, even after the thread went on with another answer. Eino's DAG interrupts
// (cloudwego/eino compose/checkpoint_test.go `TestDAGInterrupt`) resume from a checkpoint id that each
// run overwrites, so Eino has no older checkpoint to go back to; Weft keeps the history, and the old
// branch stays in it. Issue 39, item 10.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../../src/checkpoint/memory-checkpointer.js';
import { appendReducer, Command, END, START, StateGraph } from '../../src/index.js';

function buildApp(mode: 'pregel' | 'dag', runs: string[]) {
  const node = (name: string) => () => {
    runs.push(name);
    return { log: name };
  };
  return new StateGraph(z.object({ log: z.array(z.string()).default([]) }), {
    reducers: { log: appendReducer },
  })
    .addNode('a', node('a'))
    .addNode('ask', (_state, ctx) => {
      runs.push('ask');
      return { log: `ask:${ctx.interrupt<string>('go?')}` };
    })
    .addNode('side', node('side'))
    .addNode('join', node('join'))
    .addEdge(START, 'a')
    .addEdge('a', 'ask')
    .addEdge('a', 'side')
    .addEdge(['ask', 'side'], 'join')
    .addEdge('join', END)
    .compile({ checkpointer: new MemoryCheckpointer(), mode });
}

describe.each(['pregel', 'dag'] as const)('time travel to a pause with another answer (%s mode)', (mode) => {
  it('forks from the pause checkpoint and answers its pause with the new value', async () => {
    const runs: string[] = [];
    const app = buildApp(mode, runs);
    const paused = await app.run({}, { threadId: 't' });
    const pauseId = paused.checkpointId as string;
    expect(await app.invoke(new Command({ resume: 'yes' }), { threadId: 't' })).toEqual({
      log: ['a', 'ask:yes', 'side', 'join'],
    });
    const before = await app.getStateHistory('t');
    runs.length = 0;

    const forked = await app.invoke(new Command({ resume: 'no' }), { threadId: 't', checkpointId: pauseId });
    expect(forked).toEqual({ log: ['a', 'ask:no', 'side', 'join'] });
    // DAG mode: `side` finished before the pause, which committed it; it is not run again. Pregel mode: a
    // fork runs its step's tasks again, keeping only the paused ones (their ids, which the answer names).
    expect(runs).toEqual(mode === 'dag' ? ['ask', 'join'] : ['ask', 'side', 'join']);
    const head = await app.getState('t');
    expect(head?.values).toEqual(forked);
    const after = await app.getStateHistory('t');
    expect(after.slice(-before.length).map((s) => s.checkpointId)).toEqual(before.map((s) => s.checkpointId));

    // And once more, with yet another answer: the pause checkpoint still holds its question.
    expect(
      await app.invoke(new Command({ resume: 'maybe' }), { threadId: 't', checkpointId: pauseId }),
    ).toEqual({
      log: ['a', 'ask:maybe', 'side', 'join'],
    });
    expect((await app.getState('t', { checkpointId: pauseId }))?.interrupts.map((i) => i.value)).toEqual([
      'go?',
    ]);
  });
});
