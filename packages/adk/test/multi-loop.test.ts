import { describe, expect, test } from 'vitest';
import {
  ChatModelAgent,
  exitLoopTool,
  LoopAgent,
  MemorySessionService,
  messageText,
  Runner,
  SequentialAgent,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { drain, trail } from './multi-helpers.js';

function writer() {
  let draft = 0;
  const model = new ScriptedChatModel(() => `Draft ${++draft}`);
  return { model, agent: new ChatModelAgent({ name: 'writer', model, outputKey: 'draft' }) };
}

describe('LoopAgent', () => {
  test('a writer/critic loop ends when the critic calls exit_loop', async () => {
    const w = writer();
    const criticModel = new ScriptedChatModel([
      'Too short, add detail.',
      { text: 'Good now.', toolCalls: [{ name: 'exit_loop' }] },
    ]);
    const critic = new ChatModelAgent({
      name: 'critic',
      model: criticModel,
      instruction: 'Review: {draft}',
      tools: [exitLoopTool()],
      outputKey: 'review',
    });
    const agent = new LoopAgent({ name: 'refine', subAgents: [w.agent, critic], maxIterations: 5 });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write a poem' }));
    expect(w.model.calls).toHaveLength(2);
    expect(criticModel.calls).toHaveLength(2);
    expect(criticModel.calls[1]?.messages[0]).toMatchObject({ content: 'Review: Draft 2' });
    // The second writer call sees the critic's feedback as context, not its loop-control traffic.
    expect(w.model.calls[1]?.messages.map((m) => messageText(m))).toEqual([
      'Write a poem',
      'Draft 1',
      'For context: [critic] said: Too short, add detail.',
    ]);
    const breakEvent = events.find((e) => e.actions.breakLoop);
    expect(breakEvent).toMatchObject({ author: 'critic', branch: 'refine.critic' });
    expect(trail(events).at(-1)).toBe('refine:done');
    const session = await sessions.get({ appName: 'refine', userId: 'u', sessionId: 's' });
    expect(session?.state).toMatchObject({ draft: 'Draft 2', review: 'Too short, add detail.' });
  });

  test('a loop stops after maxIterations and counts them in `loops`', async () => {
    const w = writer();
    const critic = new ChatModelAgent({
      name: 'critic',
      model: new ScriptedChatModel(() => 'Keep going.'),
      tools: [exitLoopTool()],
    });
    const agent = new LoopAgent({ name: 'refine', subAgents: [w.agent, critic], maxIterations: 3 });
    const state = await agent.compile().invoke({ input: 'Write' });
    expect(w.model.calls).toHaveLength(3);
    expect(state.loops).toEqual({ refine: 3 });
    expect(state.output).toBe('Keep going.');
  });

  test('a break skips the rest of the iteration and ends only the loop that owns it', async () => {
    let innerRuns = 0;
    const breaker = new ChatModelAgent({
      name: 'breaker',
      model: new ScriptedChatModel(() => {
        innerRuns++;
        return { toolCalls: [{ name: 'exit_loop' }] };
      }),
      tools: [exitLoopTool()],
    });
    const skipped = new ChatModelAgent({ name: 'skipped', model: new ScriptedChatModel([]) });
    const inner = new LoopAgent({ name: 'inner', subAgents: [breaker, skipped], maxIterations: 10 });
    const tallyModel = new ScriptedChatModel(() => 'tally');
    const tally = new ChatModelAgent({ name: 'tally', model: tallyModel });
    const outer = new LoopAgent({ name: 'outer', subAgents: [inner, tally], maxIterations: 2 });
    const state = await new SequentialAgent({ name: 'root', subAgents: [outer] })
      .compile()
      .invoke({ input: 'go' });
    expect(innerRuns).toBe(2);
    expect(tallyModel.calls).toHaveLength(2);
    expect(state.loops).toEqual({ outer: 2, inner: 1 });
    expect(state.breakLoop).toBeUndefined();
  });

  test('a failing sub-agent ends the loop with the error', async () => {
    const w = writer();
    const critic = new ChatModelAgent({
      name: 'critic',
      model: new ScriptedChatModel([new Error('model down')]),
    });
    const agent = new LoopAgent({ name: 'refine', subAgents: [w.agent, critic] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    await expect(drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }))).rejects.toThrow(
      /model down/,
    );
    expect(w.model.calls).toHaveLength(1);
  });

  test('validates maxIterations', () => {
    const w = writer();
    expect(() => new LoopAgent({ name: 'l', subAgents: [w.agent], maxIterations: 0 })).toThrow(
      /maxIterations/,
    );
  });
});
