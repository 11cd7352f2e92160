import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  type ChatModel,
  ChatModelAgent,
  MemorySessionService,
  messageText,
  ParallelAgent,
  Runner,
  SequentialAgent,
  tool,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { drain, trail } from './multi-helpers.js';

/** A research branch: one search tool call that writes `shared` and its own key, then a finding. */
function branch(name: string) {
  const search = tool({
    name: 'search',
    description: 'search',
    parameters: z.object({}),
    execute: (_args, ctx) => {
      ctx.state.set('shared', name);
      return `${name} results`;
    },
  });
  const model = new ScriptedChatModel([{ toolCalls: [{ name: 'search' }] }, `${name} finding`]);
  return {
    model,
    agent: new ChatModelAgent({ name, model, tools: [search], outputKey: `${name}_finding` }),
  };
}

function research(maxConcurrency?: number) {
  const branches = ['web', 'papers', 'news'].map(branch);
  const fanOut = new ParallelAgent({
    name: 'research',
    subAgents: branches.map((b) => b.agent),
    ...(maxConcurrency ? { maxConcurrency } : {}),
  });
  const summarizerModel = new ScriptedChatModel(['Summary of three findings.']);
  const summarizer = new ChatModelAgent({
    name: 'summarizer',
    model: summarizerModel,
    instruction: 'Merge: {web_finding} / {papers_finding} / {news_finding}',
    outputKey: 'summary',
  });
  const agent = new SequentialAgent({ name: 'report', subAgents: [fanOut, summarizer] });
  return { agent, branches, summarizerModel };
}

describe('ParallelAgent', () => {
  test('a research fan-out of 3 agents merged by a summarizer', async () => {
    const { agent, branches, summarizerModel } = research();
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Research bees' }));
    // Each branch sees the common history plus its own messages only.
    for (const { model } of branches) {
      expect(model.calls[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    }
    const branchesSeen = new Set(events.filter((e) => e.author === 'web').map((e) => e.branch));
    expect(branchesSeen).toEqual(new Set(['report.research.web']));
    expect(summarizerModel.calls[0]?.messages[0]).toMatchObject({
      content: 'Merge: web finding / papers finding / news finding',
    });
    expect(summarizerModel.calls[0]?.messages.slice(1).map((m) => messageText(m))).toEqual([
      'Research bees',
      'For context: [web] said: web finding',
      'For context: [papers] said: papers finding',
      'For context: [news] said: news finding',
    ]);
    const session = await sessions.get({ appName: 'report', userId: 'u', sessionId: 's' });
    // Same key from three branches: the last branch in declaration order wins, whatever finished last.
    expect(session?.state).toMatchObject({ shared: 'news', summary: 'Summary of three findings.' });
    expect(trail(events).filter((t) => t.startsWith('research'))).toEqual([
      'research@report.research:stateDelta',
    ]);
  });

  test('the merge is deterministic when branches finish in reverse order', async () => {
    let releaseA!: () => void;
    const aMayFinish = new Promise<void>((resolve) => (releaseA = resolve));
    const writer = (name: string, wait?: Promise<void>) =>
      new ChatModelAgent({
        name,
        model: new ScriptedChatModel(async () => {
          await wait;
          return `${name} done`;
        }),
        outputKey: 'winner',
      });
    // "a" is declared first but commits last: it waits until "b"'s write is committed.
    const agent = new ParallelAgent({ name: 'race', subAgents: [writer('a', aMayFinish), writer('b')] });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: false });
    const writes: string[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) {
      const winner = event.actions.stateDelta?.winner;
      if (typeof winner === 'string') writes.push(`${event.author}:${winner}`);
      if (event.author === 'b' && winner) releaseA();
    }
    expect(writes).toEqual(['b:b done', 'a:a done', 'race:b done']);
    const session = await sessions.get({ appName: 'race', userId: 'u', sessionId: 's' });
    expect(session?.state.winner).toBe('b done');
  });

  test('maxConcurrency bounds the branches running at once', async () => {
    let running = 0;
    let most = 0;
    const counting: ChatModel = {
      name: 'counting',
      async generate() {
        running++;
        most = Math.max(most, running);
        for (let i = 0; i < 10; i++) await Promise.resolve();
        running--;
        return { role: 'assistant', content: 'ok' };
      },
      stream: () => {
        throw new Error('not used');
      },
    };
    const agents = ['a', 'b', 'c', 'd'].map((name) => new ChatModelAgent({ name, model: counting }));
    await new ParallelAgent({ name: 'fan', subAgents: agents, maxConcurrency: 2 })
      .compile()
      .invoke({ input: 'go' });
    expect(most).toBe(2);
    most = 0;
    await new ParallelAgent({ name: 'fan', subAgents: agents }).compile().invoke({ input: 'go' });
    expect(most).toBe(4);
    expect(() => new ParallelAgent({ name: 'bad', subAgents: agents, maxConcurrency: 0 })).toThrow(
      /concurrency/,
    );
  });

  test('runner.cancel stops every running branch, recursively', async () => {
    const started: string[] = [];
    const aborted: string[] = [];
    let runner!: Runner;
    const blocking = (name: string) =>
      tool({
        name: 'work',
        description: 'works until cancelled',
        parameters: z.object({}),
        execute: (_args, ctx) =>
          new Promise<string>((_resolve, reject) => {
            started.push(name);
            ctx.signal.addEventListener('abort', () => {
              aborted.push(name);
              reject(ctx.signal.reason);
            });
            if (started.length === 3) runner.cancel({ userId: 'u', sessionId: 's' });
          }),
      });
    const branchAgent = (name: string) =>
      new ChatModelAgent({
        name,
        model: new ScriptedChatModel([{ toolCalls: [{ name: 'work' }] }]),
        tools: [blocking(name)],
      });
    const inner = new ParallelAgent({ name: 'inner', subAgents: [branchAgent('b'), branchAgent('c')] });
    const agent = new ParallelAgent({ name: 'outer', subAgents: [branchAgent('a'), inner] });
    runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const events: AgentEvent[] = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(started.sort()).toEqual(['a', 'b', 'c']);
    expect(aborted.sort()).toEqual(['a', 'b', 'c']);
    expect(events.at(-1)).toMatchObject({ turnComplete: true, error: { code: 'CANCELLED' } });
  });

  test('a safe-point cancel pauses every branch; resume continues them all', async () => {
    let runner!: Runner;
    const models: ScriptedChatModel[] = [];
    const branchAgent = (name: string) => {
      const model = new ScriptedChatModel([{ toolCalls: [{ name: 'step' }] }, `${name} done`]);
      models.push(model);
      const step = tool({
        name: 'step',
        description: 'a step',
        parameters: z.object({}),
        execute: () => {
          runner.cancel({ userId: 'u', sessionId: 's' }, { mode: 'afterTools' });
          return 'stepped';
        },
      });
      return new ChatModelAgent({ name, model, tools: [step] });
    };
    const agent = new ParallelAgent({ name: 'fan', subAgents: [branchAgent('a'), branchAgent('b')] });
    runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(paused.at(-1)?.interrupts?.map((i) => i.value)).toEqual([
      { type: 'cancelled', at: 'afterTools' },
      { type: 'cancelled', at: 'afterTools' },
    ]);
    expect(models.map((m) => m.calls.length)).toEqual([1, 1]);
    const resumed = await drain(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(resumed.at(-1)).toMatchObject({ turnComplete: true });
    expect(resumed.at(-1)?.interrupts).toBeUndefined();
    expect(models.map((m) => m.calls.length)).toEqual([2, 2]);
  });
});
