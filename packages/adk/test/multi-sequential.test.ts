import { describe, expect, test } from 'vitest';
import { ChatModelAgent, MemorySessionService, messageText, Runner, SequentialAgent } from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { drain, trail } from './multi-helpers.js';

function pipeline() {
  const researcher = new ChatModelAgent({
    name: 'researcher',
    model: new ScriptedChatModel(['Facts: bees dance.']),
    instruction: 'Research the topic.',
    outputKey: 'facts',
  });
  const writerModel = new ScriptedChatModel(['Draft: bees dance to talk.']);
  const writer = new ChatModelAgent({
    name: 'writer',
    model: writerModel,
    instruction: 'Write from these facts: {facts}',
    outputKey: 'draft',
  });
  const editorModel = new ScriptedChatModel(['Final: Bees dance to talk.']);
  const editor = new ChatModelAgent({
    name: 'editor',
    model: editorModel,
    instruction: 'Polish: {draft}',
    outputKey: 'final',
  });
  const agent = new SequentialAgent({ name: 'pipeline', subAgents: [researcher, writer, editor] });
  return { agent, writerModel, editorModel };
}

describe('SequentialAgent', () => {
  test('a 3-agent pipeline passes data by outputKey and commits every step', async () => {
    const { agent, writerModel, editorModel } = pipeline();
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write about bees' }));
    expect(trail(events)).toEqual([
      'user:user',
      'researcher@pipeline.researcher:assistant',
      'researcher@pipeline.researcher:stateDelta',
      'writer@pipeline.writer:assistant',
      'writer@pipeline.writer:stateDelta',
      'editor@pipeline.editor:assistant',
      'editor@pipeline.editor:stateDelta',
      'pipeline:done',
    ]);
    expect(writerModel.calls[0]?.messages[0]).toMatchObject({
      role: 'system',
      content: 'Write from these facts: Facts: bees dance.',
    });
    // The editor sees the user and the earlier agents' replies as context.
    expect(editorModel.calls[0]?.messages.map((m) => messageText(m))).toEqual([
      'Polish: Draft: bees dance to talk.',
      'Write about bees',
      'For context: [researcher] said: Facts: bees dance.',
      'For context: [writer] said: Draft: bees dance to talk.',
    ]);
    const session = await sessions.get({ appName: 'pipeline', userId: 'u', sessionId: 's' });
    expect(session?.state).toMatchObject({
      facts: 'Facts: bees dance.',
      draft: 'Draft: bees dance to talk.',
      final: 'Final: Bees dance to talk.',
    });
  });

  test('compiles to one graph whose nodes are the sub-agents’ graphs', () => {
    const { agent } = pipeline();
    const json = agent.compile().toJSON();
    expect(json.nodes.map((n) => `${n.id}:${n.kind}`)).toEqual([
      '__start__:function',
      'enter:function',
      'researcher:subgraph',
      'writer:subgraph',
      'editor:subgraph',
      '__end__:function',
    ]);
    expect(json.nodes.find((n) => n.id === 'writer')?.subgraph?.nodes.map((n) => n.id)).toContain('model');
  });

  test('an exit action of a sub-agent ends the sequence', async () => {
    const first = new ChatModelAgent({
      name: 'first',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'exit', arguments: { final_result: 'stop here' } }] },
      ]),
      exitTool: true,
    });
    const second = new ChatModelAgent({ name: 'second', model: new ScriptedChatModel([]) });
    const agent = new SequentialAgent({ name: 'seq', subAgents: [first, second] });
    const state = await agent.compile().invoke({ input: 'go' });
    expect(state.output).toBe('stop here');
    expect(state.finish).toBe('exit');
  });

  test('rejects duplicate and reserved sub-agent names', () => {
    const a = new ChatModelAgent({ name: 'a', model: new ScriptedChatModel([]) });
    const enter = new ChatModelAgent({ name: 'enter', model: new ScriptedChatModel([]) });
    expect(() => new SequentialAgent({ name: 'seq', subAgents: [a, a] })).toThrow(
      /two sub-agents are named "a"/,
    );
    expect(() => new SequentialAgent({ name: 'seq', subAgents: [enter] })).toThrow(
      /taken by one of its own nodes/,
    );
  });
});
