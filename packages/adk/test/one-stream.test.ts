import type { AgentNodeEvent, ModelCallEvent, RunEvent, ToolEndEvent } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  AgentTool,
  ChatModelAgent,
  createTeam,
  MemorySessionService,
  Runner,
  tool,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

type Part = readonly [string, unknown];

function tokensByAgent(parts: readonly Part[]): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [mode, payload] of parts) {
    if (mode !== 'messages') continue;
    const part = payload as { agent?: string; chunk: { text?: string }; path: readonly string[] };
    const agent = part.agent ?? '?';
    text[agent] = (text[agent] ?? '') + (part.chunk.text ?? '');
  }
  return text;
}

/** Where each agent's token parts came from: `agent@node path`. */
function tokenPlaces(parts: readonly Part[]): string[] {
  const places = new Set<string>();
  for (const [mode, payload] of parts) {
    if (mode !== 'messages') continue;
    const part = payload as { agent?: string; node: string; path: readonly string[] };
    places.add(`${part.agent}@${[...part.path, part.node].join('/')}`);
  }
  return [...places];
}

function events(parts: readonly Part[]): RunEvent[] {
  return parts.filter(([mode]) => mode === 'events').map(([, e]) => e as RunEvent);
}

const add = tool({
  name: 'add',
  description: 'adds',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('agents on the one event stream', () => {
  test('a ReAct agent: messages mode yields its tokens, events carry model-call and tool events', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      'It is 5.',
    ]);
    const agent = new ChatModelAgent({ name: 'calc', model, tools: [add] });
    const parts = (await drain(
      agent.graph.stream({ input: '2+3?' }, { mode: ['messages', 'custom', 'events'] }),
    )) as Part[];
    expect(tokensByAgent(parts)).toEqual({ calc: 'It is 5.' });
    expect(tokenPlaces(parts)).toEqual(['calc@model']);
    const all = events(parts);
    // The agent's events (reply, tool results) are on the same stream, with their actions.
    const agentEvents = all.filter((e): e is AgentNodeEvent => e.type === 'agent');
    expect(agentEvents.map((e) => [e.node, (e.event.message as { role: string }).role])).toEqual([
      ['model', 'assistant'],
      ['tools', 'tool'],
      ['model', 'assistant'],
    ]);
    const calls = all.filter((e): e is ModelCallEvent => e.type === 'model-call');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ agent: 'calc', model: 'scripted', path: ['model'], streamed: true });
    expect(calls[0]?.request.tools).toEqual(['add']);
    expect(calls[1]?.response).toMatchObject({ role: 'assistant', content: 'It is 5.' });
    expect(calls[1]?.durationMs).toBeGreaterThanOrEqual(0);
    const toolEvents = all.filter((e) => e.type === 'tool-start' || e.type === 'tool-end');
    expect(toolEvents.map((e) => e.type)).toEqual(['tool-start', 'tool-end']);
    expect(toolEvents[1] as ToolEndEvent).toMatchObject({ tool: 'add', status: 'success', agent: 'calc' });
  });

  test('a failed model call is reported with its error', async () => {
    const model = new ScriptedChatModel([new Error('provider down')]);
    const agent = new ChatModelAgent({ name: 'fragile', model });
    const seen: RunEvent[] = [];
    await expect(
      agent.graph.invoke({ input: 'hi' }, { callbacks: { onEvent: (e) => void seen.push(e) } }),
    ).rejects.toThrow();
    const call = seen.find((e): e is ModelCallEvent => e.type === 'model-call');
    expect(call?.error?.message).toContain('provider down');
    expect(call?.response).toBeUndefined();
  });

  test('a team: each member tokens are tagged with that member', async () => {
    const helper = new ChatModelAgent({
      name: 'helper',
      description: 'helps',
      model: new ScriptedChatModel(['Helped.']),
    });
    const root = new ChatModelAgent({
      name: 'root',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'helper' } }] },
      ]),
      subAgents: [helper],
    });
    const team = createTeam(root);
    const parts = (await drain(
      team.compile().stream({ input: 'help me' }, { mode: ['messages', 'events'], subgraphs: true }),
    )) as Part[];
    expect(tokensByAgent(parts).helper).toBe('Helped.');
    expect(tokenPlaces(parts)).toEqual(['root@root/model', 'helper@helper/model']);
    const transfer = events(parts).find(
      (e): e is AgentNodeEvent => e.type === 'agent' && e.event.actions.transferTo !== undefined,
    );
    expect(transfer).toMatchObject({ agent: 'root', path: ['root', 'afterAgent'] });
    expect(transfer?.event.actions.transferTo).toBe('helper');
    const agents = events(parts)
      .filter((e): e is ModelCallEvent => e.type === 'model-call')
      .map((e) => e.agent);
    expect(agents).toEqual(['root', 'helper']);
  });

  test('an agent used as a tool: its tokens come tagged with its name', async () => {
    const inner = new ChatModelAgent({
      name: 'researcher',
      description: 'researches',
      model: new ScriptedChatModel(['Bees dance.']),
    });
    const outer = new ChatModelAgent({
      name: 'host',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'researcher', arguments: { request: 'bees?' } }] },
        'They dance.',
      ]),
      tools: [new AgentTool(inner)],
    });
    const parts = (await drain(
      outer.graph.stream({ input: 'bees?' }, { mode: ['messages', 'events'], subgraphs: true }),
    )) as Part[];
    expect(tokensByAgent(parts)).toEqual({ researcher: 'Bees dance.', host: 'They dance.' });
    expect(tokenPlaces(parts)).toEqual(['host@model', 'researcher@tools/model']);
  });

  test('the Runner is a subscriber: partial events come from chunk events, with the branch of nested agents', async () => {
    const inner = new ChatModelAgent({
      name: 'researcher',
      description: 'researches',
      model: new ScriptedChatModel(['Bees dance.']),
    });
    const outer = new ChatModelAgent({
      name: 'host',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'researcher', arguments: { request: 'bees?' } }] },
        'They dance.',
      ]),
      tools: [new AgentTool(inner)],
    });
    const sessionService = new MemorySessionService();
    const runner = new Runner({ agent: outer, sessionService });
    const seen: AgentEvent[] = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'bees?' }));
    const text = (author: string) =>
      seen
        .filter((e) => e.partial && e.author === author)
        .map((e) => e.chunk?.text ?? '')
        .join('');
    expect(text('researcher')).toBe('Bees dance.');
    expect(text('host')).toBe('They dance.');
    expect(seen.find((e) => e.partial && e.author === 'researcher')?.branch).toBe('host.researcher');
    // Committed events are the stored ones, in order; partial ones never are.
    const stored = (await sessionService.get({ appName: 'host', userId: 'u', sessionId: 's' }))?.events ?? [];
    expect(stored.map((e) => e.id)).toEqual(seen.filter((e) => !e.partial).map((e) => e.id));
  });
});
