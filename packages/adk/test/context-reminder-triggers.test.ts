import { expect, test } from 'vitest';
import { z } from 'zod';
import { type ReminderRule, reminders } from '../src/context/index.js';
import {
  AdkError,
  ChatModelAgent,
  MemorySessionService,
  type Message,
  messageText,
  Runner,
  tool,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { customEvents, drain } from './context-helpers.js';

const check = tool({ name: 'check', description: 'Checks', parameters: z.object({}), execute: () => 'ok' });
const write = tool({
  name: 'write',
  description: 'Writes',
  parameters: z.object({}),
  execute: () => 'written',
});

/** Runs a 5-call agent (write, check, write, check, answer) with one rule; returns the calls that showed it. */
async function shownAt(rule: ReminderRule) {
  const script = ['write', 'check', 'write', 'check'];
  const model = new ScriptedChatModel((_m, _o, index) => {
    const name = script[index];
    return name ? { toolCalls: [{ name }] } : 'done';
  });
  const agent = new ChatModelAgent({
    name: 'worker',
    model,
    tools: [check, write],
    middleware: [reminders({ rules: [rule] })],
  });
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
  const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
  const reminded = (messages: readonly Message[]) =>
    messages.some((m) => m.role === 'system' && messageText(m).includes('REMIND'));
  const stored = events.flatMap((e) => (e.message ? [messageText(e.message)] : []));
  expect(stored.some((text) => text.includes('REMIND'))).toBe(false);
  expect(model.calls).toHaveLength(5);
  const shown = model.calls.map((call, i) => (reminded(call.messages) ? i : -1)).filter((i) => i >= 0);
  expect(customEvents(events)).toHaveLength(shown.length);
  return shown;
}

test('afterToolCategory: on the call right after each round of a tool of the category', async () => {
  const when = { kind: 'afterToolCategory', category: 'modify', categories: { write: 'modify' } } as const;
  expect(await shownAt({ id: 'retest', when, text: 'REMIND' })).toEqual([1, 3]);
});

test('afterIterations: once, on the call after N calls', async () => {
  expect(
    await shownAt({ id: 'wrap', when: { kind: 'afterIterations', iterations: 3 }, text: 'REMIND' }),
  ).toEqual([3]);
});

test('onPhase: once on entering the phase, not on later calls in it', async () => {
  const phaseOf = (ctx: { iteration: number }) => (ctx.iteration >= 2 ? 'execution' : 'thinking');
  expect(
    await shownAt({ id: 'act', when: { kind: 'onPhase', phase: 'execution', phaseOf }, text: 'REMIND' }),
  ).toEqual([2]);
  expect(
    await shownAt({ id: 'plan', when: { kind: 'onPhase', phase: 'thinking', phaseOf }, text: 'REMIND' }),
  ).toEqual([0]);
});

test('custom: a function of the run; shown once when it becomes true, again only after it was false', async () => {
  const lastTool = (messages: readonly Message[]) => {
    const last = messages.at(-1);
    return last?.role === 'tool' ? last.name : undefined;
  };
  const afterCheck: ReminderRule = {
    id: 'checked',
    when: {
      kind: 'custom',
      fires: (ctx) => ctx.state.messages.some((m) => m.role === 'tool' && m.name === 'check'),
    },
    text: 'REMIND',
  };
  expect(await shownAt(afterCheck)).toEqual([2]);
  const afterEachCheck: ReminderRule = {
    id: 'each',
    when: { kind: 'custom', fires: (ctx) => lastTool(ctx.state.messages) === 'check' },
    text: 'REMIND',
  };
  expect(await shownAt(afterEachCheck)).toEqual([2, 4]);
});

test('afterIterations below 1 is a typed error naming the rule', () => {
  const bad = () =>
    reminders({ rules: [{ id: 'x', when: { kind: 'afterIterations', iterations: 0 }, text: 't' }] });
  expect(bad).toThrow(AdkError);
  expect(bad).toThrow(/"x"/);
});
