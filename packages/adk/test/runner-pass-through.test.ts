import { MemoryCheckpointer, type RunEvent } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { type AgentEvent, ChatModelAgent, MemorySessionService, Runner } from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

const agent = () =>
  new ChatModelAgent({
    name: 'echo',
    model: new ScriptedChatModel(['first answer', 'second answer', 'again']),
  });

describe('Runner run options for hosts (ADR 018)', () => {
  test('threadOf names the checkpoint thread; callbacks see every run event; recordCheckpoints positions events', async () => {
    const checkpointer = new MemoryCheckpointer();
    const runner = new Runner({
      agent: agent(),
      sessionService: new MemorySessionService(),
      checkpointer,
      threadOf: (key) => `thread-of-${key.sessionId}`,
      recordCheckpoints: true,
    });
    const seen: RunEvent[] = [];
    const all: AgentEvent[] = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'hi', callbacks: { onEvent: (e) => seen.push(e) } }),
    );
    const events = all.filter((e) => !e.partial);
    expect(all.filter((e) => e.partial).every((e) => e.checkpointId === undefined)).toBe(true);
    expect(seen.some((e) => e.type === 'run-end')).toBe(true);
    const graph = agent().compile({ checkpointer });
    const history = await graph.getStateHistory('thread-of-s');
    expect(history.length).toBeGreaterThan(0);
    const saved = seen.flatMap((e) =>
      e.type === 'checkpoint-save' && e.path.length === 0 ? [e.checkpointId] : [],
    );
    // The user message comes before the thread's first checkpoint; every later event after one.
    expect(events[0]?.checkpointId).toBeUndefined();
    for (const event of events.slice(1)) expect(saved).toContain(event.checkpointId);
    expect(events.at(-1)?.checkpointId).toBe(saved.at(-1));
  });

  test('interruptBefore pauses at a node, resume goes on; checkpointId runs from an older checkpoint', async () => {
    const checkpointer = new MemoryCheckpointer();
    const sessionService = new MemorySessionService();
    const runner = new Runner({ agent: agent(), sessionService, checkpointer, threadOf: () => 't' });
    const ref = { userId: 'u', sessionId: 's' };
    await drain(runner.run({ ...ref, message: 'hi', interruptBefore: ['model'] }));
    const graph = agent().compile({ checkpointer });
    expect((await graph.getState('t'))?.next).toEqual(['model']);
    const paused = (await graph.getState('t'))?.checkpointId;
    await drain(runner.resume(ref));
    expect((await graph.getState('t'))?.next).toEqual([]);
    const texts = async () => {
      const values = (await graph.getState('t'))?.values as { messages: Array<{ content: unknown }> };
      return values.messages.map((m) => m.content);
    };
    expect(await texts()).toEqual(['hi', 'first answer']);
    await drain(runner.resume({ ...ref, ...(paused ? { checkpointId: paused } : {}) }));
    expect(await texts()).toEqual(['hi', 'second answer']);
  });
});
