import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  ChatModelAgent,
  MemorySessionService,
  Runner,
  type SessionKey,
  tool,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

/** A session service whose commits take a few event-loop turns, counting those in flight. */
class SlowSessions extends MemorySessionService {
  inFlight = 0;
  override async appendEvent(key: SessionKey, event: AgentEvent): Promise<AgentEvent> {
    this.inFlight++;
    try {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      return await super.appendEvent(key, event);
    } finally {
      this.inFlight--;
    }
  }
}

describe('Runner commit contract (the Runner as a subscriber of the event stream)', () => {
  test('every event is committed before the agent continues: the next step starts on stored state', async () => {
    const sessions = new SlowSessions();
    const key = { appName: 'counter', userId: 'u', sessionId: 's' };
    const seenAtModelCall: Array<{ inFlight: number; count: unknown }> = [];
    const bump = tool({
      name: 'bump',
      description: 'adds one to the count',
      parameters: z.object({}),
      execute: (_args, context) => {
        context.state.set('count', Number(context.state.get('count') ?? 0) + 1);
        return 'bumped';
      },
    });
    const agent = new ChatModelAgent({
      name: 'counter',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'bump', arguments: {} }] },
        { toolCalls: [{ name: 'bump', arguments: {} }] },
        'Counted twice.',
      ]),
      tools: [bump],
      middleware: [
        {
          beforeModel: async () => {
            const stored = await sessions.get(key);
            seenAtModelCall.push({ inFlight: sessions.inFlight, count: stored?.state.count });
          },
        },
      ],
    });
    const runner = new Runner({ agent, sessionService: sessions });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'count' }));
    // At each model call no commit is in flight, and the previous tool's state write is stored.
    expect(seenAtModelCall).toEqual([
      { inFlight: 0, count: undefined },
      { inFlight: 0, count: 1 },
      { inFlight: 0, count: 2 },
    ]);
    expect(events.at(-1)?.turnComplete).toBe(true);
  });

  test('a commit that fails fails the turn, and the agent does not go on', async () => {
    class FailingSessions extends MemorySessionService {
      override async appendEvent(key: SessionKey, event: AgentEvent): Promise<AgentEvent> {
        if (event.message?.role === 'assistant') throw new Error('disk full');
        return super.appendEvent(key, event);
      }
    }
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'never', arguments: {} }] }, 'unreached']);
    const never = tool({
      name: 'never',
      description: 'must not run',
      parameters: z.object({}),
      execute: () => {
        throw new Error('the tool ran after a failed commit');
      },
    });
    const agent = new ChatModelAgent({ name: 'a', model, tools: [never] });
    const runner = new Runner({ agent, sessionService: new FailingSessions() });
    await expect(drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }))).rejects.toThrow(
      /disk full/,
    );
    expect(model.calls).toHaveLength(1);
  });
});
