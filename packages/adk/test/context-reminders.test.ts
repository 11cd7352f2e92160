import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { compaction, isCompactionSummary, reminders } from '../src/context/index.js';
import {
  ChatModelAgent,
  MemorySessionService,
  type Message,
  messageText,
  Runner,
  tool,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { customEvents, drain } from './context-helpers.js';

const check = tool({
  name: 'check',
  description: 'Checks the build status',
  parameters: z.object({}),
  execute: () => 'status: pending',
  readOnly: true,
});

const reminded = (messages: readonly Message[], text: string) =>
  messages.some((m) => m.role === 'system' && messageText(m).includes(text));

describe('reminders', () => {
  test('noProgress: shown to the one call after every N replies without a new tool result, never stored', async () => {
    const model = new ScriptedChatModel((_m, _o, index) =>
      index < 6 ? { toolCalls: [{ name: 'check' }] } : 'Still pending.',
    );
    const agent = new ChatModelAgent({
      name: 'watcher',
      model,
      tools: [check],
      middleware: [
        reminders({
          rules: [{ id: 'stuck', when: { kind: 'noProgress', iterations: 2 }, text: 'You are stuck.' }],
        }),
      ],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Is the build done?' }));
    const shown = model.calls
      .map((call, index) => (reminded(call.messages, 'You are stuck.') ? index : -1))
      .filter((i) => i >= 0);
    expect(shown).toEqual([3, 5]);
    expect(messageText(model.calls[3]?.messages.at(-1) as Message)).toBe(
      '<system-reminder>\nYou are stuck.\n</system-reminder>',
    );
    expect(customEvents(events)).toEqual([
      { type: 'context-reminder', data: { rule: 'stuck', trigger: 'noProgress' } },
      { type: 'context-reminder', data: { rule: 'stuck', trigger: 'noProgress' } },
    ]);
    const stored = events.flatMap((e) => (e.message ? [messageText(e.message)] : []));
    expect(stored.some((text) => text.includes('system-reminder'))).toBe(false);
  });

  test('noProgress with a custom predicate counts every reply when nothing is progress', async () => {
    const model = new ScriptedChatModel((_m, _o, index) =>
      index < 4 ? { toolCalls: [{ name: 'check' }] } : 'done',
    );
    const agent = new ChatModelAgent({
      name: 'watcher',
      model,
      tools: [check],
      middleware: [
        reminders({
          rules: [
            {
              id: 'stuck',
              when: { kind: 'noProgress', iterations: 2, progress: () => false },
              text: 'Stuck!',
            },
          ],
          role: 'user',
        }),
      ],
    });
    const state = await agent.graph.invoke({ input: 'go' });
    const shown = model.calls.map(
      (call) =>
        call.messages.at(-1)?.role === 'user' &&
        messageText(call.messages.at(-1) as Message).includes('Stuck!'),
    );
    expect(shown).toEqual([false, false, true, false, true]);
    expect(state.messages.some((m) => messageText(m).includes('Stuck!'))).toBe(false);
  });

  test('afterCompaction: shown exactly on the calls whose history was just compacted', async () => {
    const model = new ScriptedChatModel((messages) =>
      messages.at(-1)?.role === 'tool' ? `Answer ${'x'.repeat(200)}` : { toolCalls: [{ name: 'check' }] },
    );
    const agent = new ChatModelAgent({
      name: 'watcher',
      model,
      tools: [check],
      middleware: [
        reminders({
          rules: [{ id: 'compacted', when: { kind: 'afterCompaction' }, text: 'History was summarized.' }],
        }),
        compaction({
          model: new ScriptedChatModel(() => 'A summary.'),
          thresholdTokens: 200,
          keepLastTurns: 2,
        }),
      ],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    for (let turn = 0; turn < 6; turn++)
      await drain(runner.run({ userId: 'u', sessionId: 's', message: `Q${turn}` }));
    const summaryIds = model.calls.map((call) => call.messages.find(isCompactionSummary)?.id);
    const fresh = summaryIds.map((id, i) => id !== undefined && id !== summaryIds[i - 1]);
    expect(fresh.filter(Boolean).length).toBeGreaterThan(1);
    expect(model.calls.map((call) => reminded(call.messages, 'History was summarized.'))).toEqual(fresh);
  });

  test('beforeToolCategory: the model is asked again with the reminder before such a tool runs, once per turn', async () => {
    const deleted: string[] = [];
    const deleteFile = tool({
      name: 'delete_file',
      description: 'Deletes a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        deleted.push(path);
        return `deleted ${path}`;
      },
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'a' } }] },
      { toolCalls: [{ name: 'check' }] },
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'a' } }] },
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'a' } }] },
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'b' } }] },
      'Deleted a and b.',
    ]);
    const careful = reminders({
      rules: [
        {
          id: 'careful',
          when: {
            kind: 'beforeToolCategory',
            category: 'destructive',
            categories: { delete_file: 'destructive' },
          },
          text: 'Deleting cannot be undone.',
        },
      ],
    });
    const agent = new ChatModelAgent({
      name: 'cleaner',
      model,
      tools: [check, deleteFile],
      middleware: [careful],
    });
    const state = await agent.graph.invoke({ input: 'Clean up a and b' });
    expect(deleted).toEqual(['a', 'b']);
    expect(model.calls.map((call) => reminded(call.messages, 'Deleting cannot be undone.'))).toEqual([
      false,
      true,
      false,
      true,
      false,
      false,
    ]);
    const calls = state.messages.flatMap((m) =>
      m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.name) : [],
    );
    expect(calls).toEqual(['check', 'delete_file', 'delete_file']);
    expect(state.iterations).toBe(4);
  });

  test('rejects duplicate rule ids and a noProgress count below 1', () => {
    const rule = { id: 'r', when: { kind: 'afterCompaction' as const }, text: 'x' };
    expect(() => reminders({ rules: [rule, rule] })).toThrow(/used twice/);
    expect(() =>
      reminders({ rules: [{ id: 'n', when: { kind: 'noProgress', iterations: 0 }, text: 'x' }] }),
    ).toThrow(/iterations/);
  });
});
