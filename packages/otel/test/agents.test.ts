import { AgentTool, ChatModelAgent, tool, userMessage } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import type { RunEvent } from '@weft/compose';
import { createSupervisor } from '@weft/prebuilt';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing, only, spanTree } from './helpers.js';

function calculator(failing = false) {
  const add = tool({
    name: 'add',
    description: 'Adds two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => {
      if (failing) throw new Error('the adder is broken');
      return a + b;
    },
  });
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: 'call_1', name: 'add', arguments: { a: 1, b: 2 } }] },
    'It is 3.',
  ]);
  return new ChatModelAgent({
    name: 'calc',
    instruction: 'You add numbers. Key: sk-secret',
    model,
    tools: [add],
  });
}

const callId = (s: { attributes: Record<string, unknown> }) =>
  String(s.attributes['gen_ai.tool.call.id'] ?? '');

test('a ReAct agent: model calls and tool calls as GenAI spans under their nodes', async () => {
  const { exporter, tracing } = memoryTracing();
  const answer = await calculator().graph.invoke({ messages: [userMessage('What is 1 + 2?')] } as never, {
    callbacks: tracing.callbacks(),
  });
  expect((answer as { messages: { content: unknown }[] }).messages.at(-1)?.content).toBe('It is 3.');
  const spans = exporter.getFinishedSpans();
  expect(spanTree(spans, callId)).toEqual([
    'run calc',
    '  invoke_agent calc',
    '    step 0',
    '      node init',
    '    step 1',
    '      node model',
    '        chat scripted',
    '    step 2',
    '      node cancelAfterModel',
    '    step 3',
    '      node tools',
    '        execute_tool add call_1',
    '    step 4',
    '      node cancelAfterTools',
    '    step 5',
    '      node model',
    '        chat scripted',
    '    step 6',
    '      node afterAgent',
  ]);
  const [first, second] = spans.filter((s) => s.name === 'chat scripted');
  expect(first?.kind).toBe(2); // CLIENT
  expect(first?.attributes).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'scripted', // a scripted model has no provider id: its name stands in
    'gen_ai.usage.input_tokens': expect.any(Number),
    'gen_ai.usage.output_tokens': expect.any(Number),
    'weft.agent': 'calc',
    'weft.model.tools': ['add'],
    'weft.node.path': ['model'],
  });
  expect(second?.attributes['weft.task.id']).not.toBe(first?.attributes['weft.task.id']);
  expect(only(spans, 'execute_tool add').attributes).toMatchObject({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'add',
    'gen_ai.tool.call.id': 'call_1',
    'gen_ai.tool.type': 'function',
    'weft.agent': 'calc',
  });
  // Contents are off by default: no prompt (with its secret), no completion, no arguments or results.
  const recorded = JSON.stringify(spans.map((s) => s.attributes));
  expect(recorded).not.toContain('sk-secret');
  expect(recorded).not.toContain('gen_ai.input.messages');
  expect(recorded).not.toContain('gen_ai.tool.call.arguments');
});

test('with captureContent, prompts, completions, tool arguments and results are on the spans', async () => {
  const { exporter, tracing } = memoryTracing({ captureContent: true });
  await calculator().graph.invoke({ messages: [userMessage('What is 1 + 2?')] } as never, {
    callbacks: tracing.callbacks(),
  });
  const spans = exporter.getFinishedSpans();
  const [first, second] = spans.filter((s) => s.name === 'chat scripted');
  const prompt = JSON.parse(String(first?.attributes['gen_ai.input.messages'])) as { role: string }[];
  expect(prompt.map((m) => m.role)).toEqual(['system', 'user']);
  expect(String(first?.attributes['gen_ai.input.messages'])).toContain('sk-secret');
  expect(JSON.parse(String(second?.attributes['gen_ai.output.messages']))[0].content).toBe('It is 3.');
  const call = only(spans, 'execute_tool add');
  expect(JSON.parse(String(call.attributes['gen_ai.tool.call.arguments']))).toEqual({ a: 1, b: 2 });
  expect(JSON.parse(String(call.attributes['gen_ai.tool.call.result']))).toEqual([
    { type: 'json', value: 3 },
  ]);
});

test('a tool that fails marks its span as an error, and the agent goes on', async () => {
  const { exporter, tracing } = memoryTracing();
  await calculator(true).graph.invoke({ messages: [userMessage('What is 1 + 2?')] } as never, {
    callbacks: tracing.callbacks(),
  });
  const call = only(exporter.getFinishedSpans(), 'execute_tool add');
  expect(call.status).toEqual({ code: 2, message: 'the adder is broken' });
  expect(call.attributes['error.type']).toBe('Error');
  expect(call.events.map((e) => e.name)).toEqual(['exception']);
  expect(only(exporter.getFinishedSpans(), 'run calc').status.code).toBe(0);
});

test('a supervisor team with an agent used as a tool: one tree along the node paths, the agent under its tool call', async () => {
  const { exporter, tracing } = memoryTracing();
  const checker = new ChatModelAgent({
    name: 'checker',
    description: 'Checks facts',
    model: new ScriptedChatModel(['Confirmed: bees dance.']),
  });
  const researcher = new ChatModelAgent({
    name: 'researcher',
    description: 'Finds facts',
    model: new ScriptedChatModel([
      { toolCalls: [{ id: 'r1', name: 'checker', arguments: { request: 'Do bees dance?' } }] },
      'Bees dance.',
    ]),
    tools: [new AgentTool(checker)],
  });
  const transfer = (id: string, agent_name: string) => ({
    toolCalls: [{ id, name: 'transfer_to_agent', arguments: { agent_name } }],
  });
  const team = createSupervisor({
    supervisor: { model: new ScriptedChatModel([transfer('s1', 'researcher'), 'Bees talk by dancing.']) },
    agents: [researcher],
  });
  await team.compile().invoke({ messages: [userMessage('How do bees talk?')] } as never, {
    callbacks: tracing.callbacks(),
  });
  const spans = exporter.getFinishedSpans();
  const agent = (s: (typeof spans)[number]) =>
    s.name.startsWith('chat') || s.name.startsWith('execute_tool')
      ? `(${s.attributes['weft.agent']}${callId(s) ? ` ${callId(s)}` : ''})`
      : '';
  expect(spanTree(spans, agent)).toEqual([
    'run supervisor',
    '  step 0',
    '    node enter',
    '  step 1',
    '    node supervisor',
    '      invoke_agent supervisor',
    '        step 0',
    '          node init',
    '        step 1',
    '          node model',
    '            chat scripted (supervisor)',
    '        step 2',
    '          node cancelAfterModel',
    '        step 3',
    '          node tools',
    '            execute_tool transfer_to_agent (supervisor s1)',
    '        step 4',
    '          node afterAgent',
    '  step 2',
    '    node researcher',
    '      step 0',
    '        node researcher',
    '          invoke_agent researcher',
    '            step 0',
    '              node init',
    '            step 1',
    '              node model',
    '                chat scripted (researcher)',
    '            step 2',
    '              node cancelAfterModel',
    '            step 3',
    '              node tools',
    '                execute_tool checker (researcher r1)',
    '                  invoke_agent checker',
    '                    step 0',
    '                      node init',
    '                    step 1',
    '                      node model',
    '                        chat scripted (checker)',
    '                    step 2',
    '                      node afterAgent',
    '            step 4',
    '              node cancelAfterTools',
    '            step 5',
    '              node model',
    '                chat scripted (researcher)',
    '            step 6',
    '              node afterAgent',
    '      step 1',
    '        node handBack',
    '  step 3',
    '    node supervisor',
    '      invoke_agent supervisor',
    '        step 0',
    '          node init',
    '        step 1',
    '          node model',
    '            chat scripted (supervisor)',
    '        step 2',
    '          node afterAgent',
  ]);
  const inner = spans.find((s) => s.attributes['weft.agent'] === 'checker');
  expect(inner?.attributes['weft.node.path']).toEqual(['researcher', 'researcher', 'tools', 'model']);
  expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
});

test('tool and model spans take the exact times of their events', async () => {
  const { exporter, tracing } = memoryTracing();
  const traced = tracing.callbacks();
  const events: RunEvent[] = [];
  await calculator().graph.invoke({ messages: [userMessage('What is 1 + 2?')] } as never, {
    callbacks: {
      onEvent: (event) => {
        events.push(event);
        traced.onEvent?.(event);
      },
    },
  });
  const spans = exporter.getFinishedSpans();
  const ms = ([seconds, nanos]: readonly [number, number]) => seconds * 1000 + nanos / 1e6;
  const start = events.find((e) => e.type === 'tool-start');
  const end = events.find((e) => e.type === 'tool-end');
  const tool = only(spans, 'execute_tool add');
  expect(ms(tool.startTime)).toBeCloseTo(start?.ts ?? Number.NaN, 3);
  expect(ms(tool.endTime)).toBeCloseTo(end?.ts ?? Number.NaN, 3);
  const calls = events.filter((e) => e.type === 'model-call');
  const chats = spans.filter((s) => s.name === 'chat scripted');
  expect(chats).toHaveLength(calls.length);
  for (const [index, call] of calls.entries()) {
    expect(ms(chats[index]!.startTime)).toBeCloseTo(call.startedAt, 3);
    expect(ms(chats[index]!.endTime)).toBeCloseTo(call.startedAt + call.durationMs, 3);
  }
});
