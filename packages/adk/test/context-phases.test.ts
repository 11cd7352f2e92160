import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { phases } from '../src/context/index.js';
import {
  type AgentEvent,
  ChatModelAgent,
  MemorySessionService,
  type Message,
  messageText,
  Runner,
  tool,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { customEvents, drain } from './context-helpers.js';

function tools(log: string[]) {
  const read = tool({
    name: 'read_notes',
    description: 'Reads the notes',
    parameters: z.object({}),
    execute: () => 'notes: ship v2',
    readOnly: true,
  });
  const plan = tool({
    name: 'save_plan',
    description: 'Saves the plan',
    parameters: z.object({ plan: z.string() }),
    execute: ({ plan }, ctx) => {
      ctx.state.set('plan', plan);
      return 'saved';
    },
    readOnly: true,
  });
  const write = tool({
    name: 'write_file',
    description: 'Writes a file',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      log.push(text);
      return 'written';
    },
  });
  return [read, plan, write];
}

const offered = (model: ScriptedChatModel) =>
  model.calls.map((call) => (call.options.tools ?? []).map((t) => t.name));

describe('phases', () => {
  test('a strong model plans with read-only tools, a fast model acts with all of them', async () => {
    const log: string[] = [];
    const strong = new ScriptedChatModel([
      { toolCalls: [{ name: 'read_notes' }] },
      { toolCalls: [{ name: 'save_plan', arguments: { plan: 'write v2' } }] },
    ]);
    const fast = new ScriptedChatModel([
      { toolCalls: [{ name: 'write_file', arguments: { text: 'v2' } }] },
      'Done.',
    ]);
    const agent = new ChatModelAgent({
      name: 'builder',
      instruction: 'You build things.',
      model: new ScriptedChatModel([]),
      tools: tools(log),
      middleware: [
        phases({
          thinking: { model: strong, readOnly: true, instruction: 'Phase: plan. Save a plan when ready.' },
          execution: { model: fast, instruction: 'Phase: execute the plan.' },
          switchWhen: ({ session }) => session.has('plan'),
        }),
      ],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService() });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Ship v2' }));
    expect(log).toEqual(['v2']);
    expect(offered(strong)).toEqual([
      ['read_notes', 'save_plan'],
      ['read_notes', 'save_plan'],
    ]);
    expect(offered(fast)).toEqual([
      ['read_notes', 'save_plan', 'write_file'],
      ['read_notes', 'save_plan', 'write_file'],
    ]);
    expect(messageText(strong.calls[0]?.messages[0] as Message)).toBe(
      'You build things.\n\nPhase: plan. Save a plan when ready.',
    );
    expect(messageText(fast.calls[0]?.messages[0] as Message)).toBe(
      'You build things.\n\nPhase: execute the plan.',
    );
    expect(customEvents(events)).toEqual([
      { type: 'context-phase', data: { phase: 'thinking', tools: ['read_notes', 'save_plan'] } },
      {
        type: 'context-phase',
        data: { phase: 'execution', tools: ['read_notes', 'save_plan', 'write_file'] },
      },
    ]);
    const partial = events.filter((e: AgentEvent) => e.partial).map((e) => e.chunk?.text ?? '');
    expect(partial.join('')).toBe('Done.');
  });

  test('a write the thinking model makes up is refused and never runs', async () => {
    const log: string[] = [];
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'write_file', arguments: { text: 'too early' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { text: 'now' } }] },
      'Written.',
    ]);
    const agent = new ChatModelAgent({
      name: 'builder',
      model,
      tools: tools(log),
      middleware: [phases({ thinking: { readOnly: true }, execution: {}, switchWhen: 1 })],
    });
    const state = await agent.graph.invoke({ input: 'write' });
    expect(log).toEqual(['now']);
    const results = state.messages.filter((m) => m.role === 'tool');
    expect(results[0]).toMatchObject({ status: 'error' });
    expect(messageText(results[0] as Message)).toMatch(/not available in the thinking \(read-only\) phase/);
    expect(results[1]).toMatchObject({ status: 'success' });
    expect(offered(model)[0]).toEqual(['read_notes', 'save_plan']);
  });

  test('without readOnly the thinking phase keeps every tool and only changes the model', async () => {
    const thinker = new ScriptedChatModel(['thought']);
    const agent = new ChatModelAgent({
      name: 'builder',
      model: new ScriptedChatModel([]),
      tools: tools([]),
      middleware: [phases({ thinking: { model: thinker, readOnly: false }, execution: {}, switchWhen: 5 })],
    });
    await agent.graph.invoke({ input: 'think' });
    expect(offered(thinker)).toEqual([['read_notes', 'save_plan', 'write_file']]);
  });

  test('rejects a fractional switch count', () => {
    expect(() => phases({ thinking: {}, execution: {}, switchWhen: 1.5 })).toThrow(/switchWhen/);
  });
});
