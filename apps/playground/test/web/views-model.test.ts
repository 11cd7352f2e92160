// Issue #19 (3–5): the trace waterfall, token usage and the labelled multi-agent conversation, as the
// web app derives them from a run's events and a thread's messages.
import { describe, expect, it } from 'vitest';
import type { RunInfo, WireEvent } from '../../src/shared/wire.ts';
import {
  conversationOf,
  type MessageJson,
  transferCallTarget,
  usageOf,
} from '../../web/src/conversation/conversation-model.ts';
import { runUsage, traceOf } from '../../web/src/trace/trace-model.ts';

let seq = 0;
// Fixtures give only the fields the code under test reads.
const e = (type: WireEvent['type'], ts: number, extra: Record<string, unknown> = {}): WireEvent =>
  ({ seq: seq++, type, ts, path: [], ...extra }) as unknown as WireEvent;
const run = (status: RunInfo['status']): RunInfo => ({
  id: 'r',
  threadId: 't',
  graphId: 'g',
  kind: 'start',
  status,
  startedAt: 1000,
  steps: 0,
  interrupts: [],
});

describe('trace waterfall', () => {
  it('nests node tasks, fan-out tasks and subgraph nodes by path, over time, with model calls', () => {
    const events = [
      e('run-start', 1000),
      e('node-start', 1000, { path: ['plan'], node: 'plan', taskId: 'a' }),
      e('node-end', 1010, { path: ['plan'], node: 'plan', taskId: 'a' }),
      e('node-start', 1010, { path: ['research'], taskId: 'b' }),
      e('node-start', 1010, { path: ['research'], taskId: 'c' }),
      e('node-end', 1030, { path: ['research'], taskId: 'c' }),
      e('node-end', 1050, { path: ['research'], taskId: 'b' }),
      e('node-start', 1050, { path: ['summarize'], taskId: 'd' }),
      e('node-start', 1052, { path: ['summarize', 'draft'], taskId: 'e' }),
      e('model-call', 1080, {
        path: ['summarize', 'draft'],
        durationMs: 20,
        response: { usage: { inputTokens: 30, outputTokens: 10, totalTokens: 40 } },
      }),
      e('node-error', 1090, { path: ['summarize', 'draft'], taskId: 'e', error: { message: 'boom' } }),
      e('node-error', 1090, { path: ['summarize'], taskId: 'd' }),
      e('run-error', 1100),
    ];
    const { spans, durationMs } = traceOf(events, run('error'));
    expect(durationMs).toBe(100);
    const rows = spans.map((s) => [s.label, s.depth, s.start, s.end, s.status]);
    expect(rows).toEqual([
      ['run · start', 0, 0, 100, 'error'],
      ['plan', 1, 0, 10, 'ok'],
      ['research', 1, 10, 50, 'ok'],
      ['research', 1, 10, 30, 'ok'],
      ['summarize', 1, 50, 90, 'error'],
      ['summarize › draft', 2, 52, 90, 'error'],
      ['model call · summarize › draft · 40 tokens', 3, 60, 80, 'ok'],
    ]);
    // A bar opens the event that closed it.
    expect(events[spans[5]!.seq]!.type).toBe('node-error');
    expect(runUsage(events)).toEqual({
      calls: 1,
      usage: { inputTokens: 30, outputTokens: 10, totalTokens: 40 },
    });
  });

  it('marks paused nodes and closes open spans as running (live) or cancelled (stopped)', () => {
    const events = [
      e('run-start', 0),
      e('node-start', 0, { path: ['approve'], taskId: 'a' }),
      e('interrupt', 5, { path: ['approve'], taskId: 'a' }),
      e('node-start', 6, { path: ['other'], taskId: 'b' }),
      e('node-end', 9, { path: ['other'], taskId: 'b' }),
    ];
    const paused = traceOf(events, run('interrupted')).spans;
    expect(paused.map((s) => s.status)).toEqual(['paused', 'paused', 'ok']);
    const live = traceOf(events.slice(0, 2), run('running')).spans;
    expect(live.map((s) => s.status)).toEqual(['running', 'running']);
    const stopped = traceOf([...events.slice(0, 2), e('run-error', 20)], run('cancelled')).spans;
    expect(stopped.map((s) => [s.status, s.end])).toEqual([
      ['cancelled', 20],
      ['cancelled', 20],
    ]);
    expect(traceOf([], undefined)).toEqual({ spans: [], durationMs: 0 });
  });
});

describe('multi-agent conversation', () => {
  const usage = (total: number) => ({ inputTokens: total - 5, outputTokens: 5, totalTokens: total });
  const messages: MessageJson[] = [
    { role: 'user', content: 'Tell me about graphs' },
    {
      role: 'assistant',
      author: 'supervisor',
      content: 'Research this',
      usage: usage(100),
      toolCalls: [{ id: 's0', name: 'transfer_to_agent', arguments: '{"agent_name":"researcher"}' }],
    },
    {
      role: 'tool',
      author: 'supervisor',
      name: 'transfer_to_agent',
      toolCallId: 's0',
      content: [{ type: 'json', value: { transferred_to: 'researcher', context: 'full' } }],
    },
    { role: 'assistant', author: 'researcher', content: 'I found it', usage: usage(40) },
    { role: 'assistant', author: 'supervisor', content: 'Done', usage: usage(60) },
  ];

  it('labels each message with its agent and shows transfers as from → to, not JSON', () => {
    const items = conversationOf(messages);
    expect(items.map((i) => (i.kind === 'transfer' ? `${i.from} → ${i.to}` : (i.agent ?? 'user')))).toEqual([
      'user',
      'supervisor',
      'supervisor → researcher',
      'researcher',
      'supervisor',
    ]);
    expect(transferCallTarget({ name: 'transfer_to_agent', arguments: '{"agent_name":"writer"}' })).toBe(
      'writer',
    );
    expect(transferCallTarget({ name: 'lookup', arguments: '{}' })).toBeUndefined();
  });

  it('sums token usage per model call, per agent and for the conversation', () => {
    const summary = usageOf(messages);
    expect(summary.calls).toBe(3);
    expect(summary.total).toEqual({ inputTokens: 185, outputTokens: 15, totalTokens: 200 });
    expect(summary.byAgent.map((a) => [a.agent, a.usage.totalTokens, a.calls])).toEqual([
      ['supervisor', 160, 2],
      ['researcher', 40, 1],
    ]);
  });
});

describe('agent tools in the graph view', () => {
  it("turns a node's agentTools metadata into an expandable graph of its agents, at any depth", async () => {
    const { withAgentTools } = await import('../../web/src/graph-view/agent-tools.ts');
    const agent = (name: string) => ({
      name,
      kind: 'state' as const,
      mode: 'pregel' as const,
      nodes: [
        { id: '__start__', kind: 'function' as const },
        { id: 'model', kind: 'function' as const },
        { id: '__end__', kind: 'function' as const },
      ],
      edges: [],
    });
    const tools = {
      id: 'tools',
      kind: 'function' as const,
      metadata: { agentTools: { weather: agent('weather'), news: agent('news') } },
    };
    const host = { ...agent('host'), nodes: [...agent('host').nodes, tools] };
    const top = { ...agent('top'), nodes: [{ id: 'host', kind: 'subgraph' as const, subgraph: host }] };
    const drawn = withAgentTools(top);
    const expanded = drawn.nodes[0]!.subgraph!.nodes.find((n) => n.id === 'tools')!.subgraph!;
    expect(expanded.nodes.map((n) => n.id)).toEqual(['__start__', 'weather', 'news', '__end__']);
    expect(expanded.nodes[1]!.subgraph!.nodes.map((n) => n.id)).toEqual(['__start__', 'model', '__end__']);
    expect(expanded.edges.filter((e) => e.source === '__start__').map((e) => e.target)).toEqual([
      'weather',
      'news',
    ]);
    const plain = agent('plain');
    expect(withAgentTools(plain)).toBe(plain);
  });
});
