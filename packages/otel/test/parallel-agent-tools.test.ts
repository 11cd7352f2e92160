import { AgentTool, ChatModelAgent, userMessage } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { expect, test } from 'vitest';
import { memoryTracing, spanTree } from './helpers.js';

type Finished = ReturnType<ReturnType<typeof memoryTracing>['exporter']['getFinishedSpans']>[number];

/** Model and tool spans labelled with their agent (and call id), so a misplaced span shows. */
function agentLabel(s: Finished): string {
  if (!s.name.startsWith('chat') && !s.name.startsWith('execute_tool')) return '';
  const id = s.attributes['gen_ai.tool.call.id'];
  return `(${s.attributes['weft.agent']}${id === undefined ? '' : ` ${id}`})`;
}

function helper(name: string, replies: string[]): ChatModelAgent {
  return new ChatModelAgent({
    name,
    description: `The ${name} helper`,
    model: new ScriptedChatModel(replies),
  });
}

function lead(calls: { id: string; name: string }[], tools: ChatModelAgent[]): ChatModelAgent {
  return new ChatModelAgent({
    name: 'lead',
    model: new ScriptedChatModel([
      { toolCalls: calls.map((c) => ({ ...c, arguments: { request: `Ask ${c.name}` } })) },
      'All answered.',
    ]),
    tools: tools.map((agent) => new AgentTool(agent)),
  });
}

/** The spans of one nested agent (a model, no tools) under its tool call, `depth` levels in: its `invoke_agent` span holds its steps. */
function nestedAgent(agent: string, depth: number): string[] {
  const pad = '  '.repeat(depth);
  return [
    `${pad}invoke_agent ${agent}`,
    `${pad}  step 0`,
    `${pad}    node init`,
    `${pad}  step 1`,
    `${pad}    node model`,
    `${pad}      chat scripted (${agent})`,
    `${pad}  step 2`,
    `${pad}    node afterAgent`,
  ];
}

function leadTree(calls: { id: string; name: string }[]): string[] {
  return [
    'run lead',
    '  invoke_agent lead',
    '    step 0',
    '      node init',
    '    step 1',
    '      node model',
    '        chat scripted (lead)',
    '    step 2',
    '      node cancelAfterModel',
    '    step 3',
    '      node tools',
    ...calls.flatMap((c) => [`        execute_tool ${c.name} (lead ${c.id})`, ...nestedAgent(c.name, 5)]),
    '    step 4',
    '      node cancelAfterTools',
    '    step 5',
    '      node model',
    '        chat scripted (lead)',
    '    step 6',
    '      node afterAgent',
  ];
}

test('two different agent tools called in one turn: each agent run is its own subtree under its tool call', async () => {
  const { exporter, tracing } = memoryTracing();
  const calls = [
    { id: 'a1', name: 'alpha' },
    { id: 'b1', name: 'beta' },
  ];
  const agent = lead(calls, [helper('alpha', ['Alpha here.']), helper('beta', ['Beta here.'])]);
  await agent.graph.invoke({ messages: [userMessage('Ask both.')] } as never, {
    callbacks: tracing.callbacks(),
  });
  const spans = exporter.getFinishedSpans();
  expect(spanTree(spans, agentLabel)).toEqual(leadTree(calls));
  expect(spans.every((s) => s.ended)).toBe(true);
  expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
});

test('the same agent tool called twice in one turn: two subtrees, one under each call', async () => {
  const { exporter, tracing } = memoryTracing();
  const calls = [
    { id: 'a1', name: 'alpha' },
    { id: 'a2', name: 'alpha' },
  ];
  const agent = lead(calls, [helper('alpha', ['First answer.', 'Second answer.'])]);
  await agent.graph.invoke({ messages: [userMessage('Ask alpha twice.')] } as never, {
    callbacks: tracing.callbacks(),
  });
  const spans = exporter.getFinishedSpans();
  expect(spanTree(spans, agentLabel)).toEqual(leadTree(calls));
  // Every node of a nested run sits under a step of that same run: its tool call is its grandparent's parent.
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const toolOf = (s: Finished): string | undefined => {
    for (let at: Finished | undefined = s; at; at = byId.get(at.parentSpanContext?.spanId ?? '')) {
      if (at.name.startsWith('execute_tool')) return String(at.attributes['gen_ai.tool.call.id']);
    }
    return undefined;
  };
  const nested = spans.filter((s) => s.name === 'node model' && toolOf(s) !== undefined);
  expect(nested.map(toolOf).sort()).toEqual(['a1', 'a2']);
});
