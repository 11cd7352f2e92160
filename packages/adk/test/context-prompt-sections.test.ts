import { describe, expect, test } from 'vitest';
import { assembleSections, promptSections } from '../src/context/index.js';
import { ChatModelAgent, MemorySessionService, type Message, messageText, Runner } from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { customEvents, drain } from './context-helpers.js';

const words = (n: number) => 'word '.repeat(n).trim();

describe('assembleSections', () => {
  test('drops the lowest priority first, the later of equal priorities first, and keeps the order', () => {
    const prompt = assembleSections(
      [
        { id: 'base', priority: Number.POSITIVE_INFINITY, text: words(10) },
        { id: 'a', priority: 2, text: words(10) },
        { id: 'b', priority: 1, text: words(10) },
        { id: 'c', priority: 1, text: words(10) },
        { id: 'd', priority: 3, text: words(10) },
      ],
      { budgetTokens: 40 },
    );
    expect(prompt.dropped).toEqual(['c', 'b']);
    expect(prompt.kept).toEqual(['base', 'a', 'd']);
    expect(prompt.tokens).toBeLessThanOrEqual(40);
  });

  test('never drops an Infinity section, even over the budget', () => {
    const prompt = assembleSections(
      [
        { id: 'base', priority: Number.POSITIVE_INFINITY, text: words(100) },
        { id: 'extra', priority: 5, text: 'x' },
      ],
      { budgetTokens: 10 },
    );
    expect(prompt.kept).toEqual(['base']);
    expect(prompt.tokens).toBeGreaterThan(10);
  });
});

describe('promptSections middleware', () => {
  test('rewrites the system message per call, drops what does not fit and reports the drop', async () => {
    const model = new ScriptedChatModel(['Hi Ada.']);
    const agent = new ChatModelAgent({
      name: 'helper',
      instruction: 'You help.',
      model,
      middleware: [
        promptSections({
          budgetTokens: 30,
          sections: [
            {
              id: 'user',
              priority: 10,
              text: (ctx) => `The user is ${String(ctx.session.get('user:name'))}.`,
            },
            { id: 'long-tips', priority: 1, text: words(200) },
            { id: 'style', priority: 5, text: 'Answer in one sentence.' },
            { id: 'empty', priority: 7, text: () => undefined },
          ],
        }),
      ],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const events = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'hello', state: { 'user:name': 'Ada' } }),
    );
    const system = model.calls[0]?.messages[0] as Message;
    expect(system.role).toBe('system');
    expect(messageText(system)).toBe('You help.\n\nThe user is Ada.\n\nAnswer in one sentence.');
    expect(model.calls[0]?.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(customEvents(events)).toEqual([
      { type: 'context-sections-dropped', data: { dropped: ['long-tips'], budgetTokens: 30, tokens: 13 } },
    ]);
  });

  test('adds a system message when the agent has no instruction, and reports nothing when all fits', async () => {
    const model = new ScriptedChatModel(['ok']);
    const agent = new ChatModelAgent({
      name: 'helper',
      model,
      middleware: [
        promptSections({ budgetTokens: 100, sections: [{ id: 'rules', priority: 1, text: 'Be kind.' }] }),
      ],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'hello' }));
    expect(model.calls[0]?.messages.map((m) => [m.role, messageText(m)])).toEqual([
      ['system', 'Be kind.'],
      ['user', 'hello'],
    ]);
    expect(customEvents(events)).toEqual([]);
  });

  test('rejects duplicate ids and a non-positive budget', () => {
    const section = { id: 'x', priority: 1, text: 'x' };
    expect(() => promptSections({ budgetTokens: 10, sections: [section, section] })).toThrow(/used twice/);
    expect(() => promptSections({ budgetTokens: 0, sections: [] })).toThrow(/budgetTokens/);
  });
});
