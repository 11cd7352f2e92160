import { MemoryCheckpointer } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  compaction,
  defaultTokenEstimator,
  isCompactionSummary,
  isContextNote,
  splitTurns,
} from '../src/context/index.js';
import {
  ChatModelAgent,
  MemorySessionService,
  type Message,
  messageText,
  Runner,
  tool,
} from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';
import { assertToolPairs, customEvents, drain } from './context-helpers.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a fact up',
  parameters: z.object({ topic: z.string() }),
  execute: ({ topic }) => `Facts about ${topic}: ${'lorem ipsum '.repeat(20)}`,
});

/** For each question, calls `lookup` twice at once, once, or not at all (turns of uneven sizes), then answers. */
function agentModel() {
  return new ScriptedChatModel((messages, _options, index) => {
    const last = messages.at(-1) as Message;
    const answer = `Answer ${index}: ${'the topic is well covered. '.repeat(4)}`;
    if (last.role === 'tool') return answer;
    const calls = Number(/\d+/.exec(messageText(last))?.[0] ?? 1) % 3;
    if (calls === 0) return answer;
    const call = (n: number) => ({ name: 'lookup', arguments: { topic: `topic ${index}.${n}` } });
    return { toolCalls: calls === 1 ? [call(0)] : [call(0), call(1)] };
  });
}

const summarizer = () =>
  new ScriptedChatModel((_messages, _options, index) => `Summary number ${index + 1}.`);

const THRESHOLD = 1_500;
const KEEP = 3;

describe('compaction', () => {
  test('a 200-turn conversation stays under the threshold, keeps the last turns intact and never splits a tool call from its result', async () => {
    const model = agentModel();
    const cheap = summarizer();
    const agent = new ChatModelAgent({
      name: 'chatty',
      instruction: 'You answer questions.',
      model,
      tools: [lookup],
      middleware: [compaction({ model: cheap, thresholdTokens: THRESHOLD, keepLastTurns: KEEP })],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const log: Message[] = [];
    const custom: { type: string; data: unknown }[] = [];
    for (let turn = 0; turn < 200; turn++) {
      const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: `Question ${turn}?` }));
      for (const event of events) if (event.message) log.push(event.message);
      custom.push(...customEvents(events));
    }
    expect(model.calls.length).toBeGreaterThan(300);
    expect(cheap.calls.length).toBeGreaterThan(10);
    expect(custom.filter((c) => c.type === 'context-compaction')).toHaveLength(cheap.calls.length);
    // The user message of an event is stored before the agent gives it an id: compare it by content.
    const plain = (m: Message) =>
      JSON.stringify(m.role === 'user' ? { role: m.role, content: m.content } : m);
    const transcript = log.map(plain);
    for (const call of model.calls) {
      const history = call.messages.slice(1);
      expect(defaultTokenEstimator.messages(history)).toBeLessThanOrEqual(THRESHOLD);
      assertToolPairs(history);
      const verbatim = history.filter((m) => !isContextNote(m)).map(plain);
      const start = transcript.indexOf(verbatim[0] as string);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(verbatim).toEqual(transcript.slice(start, start + verbatim.length));
      if (history.some(isCompactionSummary))
        expect(splitTurns(history.filter((m) => !isContextNote(m))).length).toBeGreaterThanOrEqual(KEEP);
    }
    const last = model.calls.at(-1)?.messages ?? [];
    expect(last[1]).toMatchObject({ role: 'user' });
    expect(messageText(last[1] as Message)).toMatch(
      /^Summary of the conversation so far:\nSummary number \d+\.$/,
    );
    expect(messageText(last[2] as Message)).toMatch(
      /^Reminder of your task — the user's latest request was:\n"""\nQuestion 1\d\d\?/,
    );
    expect(messageText(last.at(-1) as Message)).toMatch(/Question 199\?|Facts about/);
  });

  test('the summary is checkpointed: a new runner over the same stores continues from the compacted history', async () => {
    const checkpointer = new MemoryCheckpointer();
    const sessionService = new MemorySessionService();
    const cheap = summarizer();
    const make = (model: ScriptedChatModel) =>
      new Runner({
        agent: new ChatModelAgent({
          name: 'chatty',
          model,
          tools: [lookup],
          middleware: [
            compaction({
              model: cheap,
              thresholdTokens: 250,
              keepLastTurns: 2,
              taskReminder: 'Keep answering.',
            }),
          ],
        }),
        sessionService,
        checkpointer,
        streaming: false,
      });
    const first = agentModel();
    for (let turn = 0; turn < 3; turn++)
      await drain(make(first).run({ userId: 'u', sessionId: 's', message: `Q${turn}` }));
    expect(cheap.calls.length).toBeGreaterThan(0);
    const second = agentModel();
    await drain(make(second).run({ userId: 'u', sessionId: 's', message: 'Q3' }));
    const sent = second.calls[0]?.messages ?? [];
    expect(isCompactionSummary(sent[0] as Message)).toBe(true);
    expect(sent[1]).toMatchObject({ role: 'user', content: 'Keep answering.' });
    expect(sent.filter(isCompactionSummary)).toHaveLength(1);
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'Q3' });
  });

  test('the summarizer reads the older turns as a transcript, previous summaries included', async () => {
    const cheap = summarizer();
    const model = agentModel();
    const agent = new ChatModelAgent({
      name: 'chatty',
      model,
      tools: [lookup],
      middleware: [compaction({ model: cheap, thresholdTokens: 200, keepLastTurns: 1 })],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    for (let turn = 0; turn < 4; turn++)
      await drain(runner.run({ userId: 'u', sessionId: 's', message: `Q${turn}` }));
    const transcript = messageText(cheap.calls[0]?.messages[1] as Message);
    expect(transcript).toContain('[user] Q0');
    expect(transcript).toContain('[assistant → lookup] {"topic":"topic 1.0"}');
    expect(transcript).toContain('[lookup result] Facts about topic 1.0');
    const later = messageText(cheap.calls.at(-1)?.messages[1] as Message);
    expect(later).toContain('[summary of earlier conversation]');
  });

  test('below the threshold nothing is summarized', async () => {
    const cheap = summarizer();
    const agent = new ChatModelAgent({
      name: 'chatty',
      model: agentModel(),
      tools: [lookup],
      middleware: [compaction({ model: cheap, thresholdTokens: 100_000, keepLastTurns: 2 })],
    });
    await agent.graph.invoke({ input: 'hello' });
    expect(cheap.calls).toHaveLength(0);
  });

  test('rejects a bad configuration', () => {
    expect(() => compaction({ model: summarizer(), thresholdTokens: 0, keepLastTurns: 2 })).toThrow(
      /thresholdTokens/,
    );
    expect(() => compaction({ model: summarizer(), thresholdTokens: 10, keepLastTurns: 0 })).toThrow(
      /keepLastTurns/,
    );
  });
});
