import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../agent/chat-model-agent.js';
import type { AgentEvent } from '../event/agent-event.js';
import type { Message } from '../message/message.js';
import { messageText } from '../message/message-text.js';
import { Runner } from '../runner/runner.js';
import { MemorySessionService } from '../session/memory-session-service.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import { MemorySessionState } from '../tool/session-state.js';
import { workingMemory } from './working-memory.js';

const profile = z.object({
  name: z.string().optional(),
  diet: z.enum(['vegan', 'vegetarian', 'any']).optional(),
  allergies: z.array(z.string()).optional(),
});

async function run(
  runner: Runner,
  userId: string,
  sessionId: string,
  message: string,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of runner.run({ userId, sessionId, message }))
    if (!event.partial) events.push(event);
  return events;
}

const instructionOf = (model: ScriptedChatModel, call: number) =>
  messageText(model.calls[call]?.messages[0] as Message);

describe('workingMemory', () => {
  it('is updated by its tool, shown in the instruction and shared by the user’s sessions only', async () => {
    const note = workingMemory({ schema: profile });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'update_working_memory', arguments: { name: 'Ada', diet: 'vegan' } }] },
      'Nice to meet you, Ada.',
      { toolCalls: [{ name: 'update_working_memory', arguments: { diet: null, allergies: ['nuts'] } }] },
      'Noted.',
      'Hello stranger.',
    ]);
    const agent = new ChatModelAgent({ name: 'chef', model, instruction: 'You cook.', middleware: [note] });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, appName: 'kitchen' });
    await run(runner, 'ada', 's1', 'I am Ada and I eat vegan.');
    expect(instructionOf(model, 0)).toMatch(
      /^You cook\.\n\nYour working memory.*\n<working_memory>\n\{\}\n<\/working_memory>$/s,
    );
    expect(model.calls[0]?.options.tools?.map((t) => t.name)).toEqual(['update_working_memory']);
    expect(instructionOf(model, 1)).toContain('"diet": "vegan"');

    await run(runner, 'ada', 's2', 'No longer vegan, but allergic to nuts.');
    expect(instructionOf(model, 2)).toContain('"name": "Ada"');
    const session = await sessions.get({ appName: 'kitchen', userId: 'ada', sessionId: 's2' });
    expect(note.read(new MemorySessionState(session?.state))).toEqual({ name: 'Ada', allergies: ['nuts'] });

    await run(runner, 'bob', 's1', 'Hi');
    expect(instructionOf(model, 4)).toContain('<working_memory>\n{}\n</working_memory>');
  });

  it('refuses an update the schema rejects and keeps the note', async () => {
    const note = workingMemory({ schema: profile, key: 'user:profile', toolName: 'remember' });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'remember', arguments: { name: 'Ada' } }] },
      { toolCalls: [{ name: 'remember', arguments: { diet: 'carnivore' } }] },
      'ok',
    ]);
    const agent = new ChatModelAgent({ name: 'chef', model, middleware: [note] });
    const sessions = new MemorySessionService();
    const events = await run(new Runner({ agent, sessionService: sessions }), 'ada', 's1', 'hi');
    const results = events.filter((e) => e.message?.role === 'tool').map((e) => e.message as Message);
    expect(results[1]).toMatchObject({ status: 'error' });
    expect(messageText(results[1] as Message)).toContain('diet');
    const session = await sessions.get({ appName: 'chef', userId: 'ada', sessionId: 's1' });
    expect(session?.state['user:profile']).toEqual({ name: 'Ada' });
  });

  it('types the note from the schema and takes only object schemas', () => {
    const note = workingMemory({ schema: profile });
    expectTypeOf(note.read(new MemorySessionState())).toEqualTypeOf<Partial<z.output<typeof profile>>>();
    // @ts-expect-error a working memory is a zod object
    expect(() => workingMemory({ schema: z.string() })).toThrow(/zod object/);
  });
});
