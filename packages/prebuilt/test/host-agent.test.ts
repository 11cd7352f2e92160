import {
  type AgentEvent,
  ChatModelAgent,
  MemorySessionService,
  type Message,
  messageText,
  Runner,
  tool,
} from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import type { RunEvent } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createHostAgent, type HostAgentTemplateOptions } from '../src/index.js';
import { branchTrace, drain, sent } from './helpers.js';

const ask = (id: string, name: string, request: string) => ({ id, name, arguments: { request } });

/** Resolves once `count` callers have arrived: proves calls overlap (sequential calls would never get there). */
function barrier(count: number) {
  let arrived = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    if (++arrived === count) open();
    await opened;
  };
}

function specialists(
  options: { failNews?: boolean; approveNews?: boolean; meet?: () => Promise<void> } = {},
) {
  const forecast = tool({
    name: 'forecast',
    description: 'The forecast for a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      await options.meet?.();
      return `${city}: sunny, 21 °C`;
    },
  });
  const headlines = tool({
    name: 'headlines',
    description: 'Today’s headlines',
    parameters: z.object({}),
    ...(options.approveNews ? { needsApproval: true } : {}),
    execute: async () => {
      await options.meet?.();
      return 'Weft 1.0 released';
    },
  });
  const weatherModel = new ScriptedChatModel([
    { toolCalls: [{ id: 'w1', name: 'forecast', arguments: { city: 'Oslo' } }] },
    'Sunny and 21 °C in Oslo.',
  ]);
  const newsModel = new ScriptedChatModel(
    options.failNews
      ? [new Error('news feed down')]
      : [{ toolCalls: [{ id: 'n1', name: 'headlines', arguments: {} }] }, 'Top story: Weft 1.0 is out.'],
  );
  const weather = new ChatModelAgent({
    name: 'weather',
    description: 'Weather forecasts',
    model: weatherModel,
    tools: [forecast],
  });
  const news = new ChatModelAgent({
    name: 'news',
    description: 'News headlines',
    model: newsModel,
    tools: [headlines],
  });
  return { weather, news, weatherModel, newsModel };
}

function setup(
  hostScript: unknown[],
  options: Partial<HostAgentTemplateOptions> & Parameters<typeof specialists>[0] = {},
) {
  const { failNews, approveNews, meet, ...rest } = options;
  const s = specialists({ failNews, approveNews, meet } as Parameters<typeof specialists>[0]);
  const hostModel = new ScriptedChatModel(hostScript as never);
  const agent = createHostAgent({ host: { model: hostModel }, specialists: [s.weather, s.news], ...rest });
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
  return { ...s, agent, runner, hostModel };
}

const both = { toolCalls: [ask('h1', 'weather', 'Weather in Oslo?'), ask('h2', 'news', 'Headlines today?')] };
const onBranch = (events: readonly AgentEvent[], branch: string) =>
  branchTrace(events.filter((e) => e.branch === branch));

describe('createHostAgent', () => {
  test('one intent: the host hands the request to one specialist, whose answer is the answer', async () => {
    const { runner, hostModel, newsModel } = setup([
      { toolCalls: [ask('h1', 'weather', 'Weather in Oslo?')] },
    ]);
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Weather in Oslo?' }));
    expect(branchTrace(events)).toEqual([
      'user:user',
      'host@host:calls(weather)',
      'weather@host.weather:calls(forecast)',
      'weather@host.weather:result(forecast)',
      'weather@host.weather:assistant',
      'host@host:result(weather)',
      'host:done',
    ]);
    expect(messageText(events[5]?.message as Message)).toBe('Sunny and 21 °C in Oslo.');
    expect(hostModel.calls).toHaveLength(1);
    expect(newsModel.calls).toHaveLength(0);
    expect(hostModel.calls[0]?.options.tools?.map((t) => `${t.name}: ${t.description}`)).toEqual([
      'weather: Weather forecasts',
      'news: News headlines',
    ]);
  });

  test('several intents run in parallel and are concatenated under headers without a summarizer', async () => {
    const { runner, weatherModel } = setup([both], { meet: barrier(2) });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Weather and news?' }));
    // Hand-off events: each specialist's work is on its own branch.
    expect(onBranch(events, 'host.weather')).toEqual([
      'weather@host.weather:calls(forecast)',
      'weather@host.weather:result(forecast)',
      'weather@host.weather:assistant',
    ]);
    expect(onBranch(events, 'host.news')).toEqual([
      'news@host.news:calls(headlines)',
      'news@host.news:result(headlines)',
      'news@host.news:assistant',
    ]);
    expect(onBranch(events, 'host')).toEqual([
      'host@host:calls(weather,news)',
      'host@host:result(weather)',
      'host@host:result(news)',
    ]);
    // The merged answer is the host template's own reply, at the root.
    expect(branchTrace(events).slice(-2)).toEqual(['host:assistant', 'host:done']);
    expect(messageText(events.at(-2)?.message as Message)).toBe(
      '## weather\nSunny and 21 °C in Oslo.\n\n## news\nTop story: Weft 1.0 is out.',
    );
    expect(sent(weatherModel, 0)).toEqual(['Weather in Oslo?']);
  });

  test('a summarizer merges several results into one answer', async () => {
    const summarizer = new ScriptedChatModel(['Sunny in Oslo, and Weft 1.0 is out.']);
    const { agent } = setup([both], { summarizer });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: true });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Weather and news?' }));
    const done = events.filter((e) => !e.partial);
    expect(done.at(-2)).toMatchObject({ author: 'host', message: { role: 'assistant' } });
    expect(messageText(done.at(-2)?.message as Message)).toBe('Sunny in Oslo, and Weft 1.0 is out.');
    const streamed = events.filter((e) => e.partial && e.author === 'host' && e.branch === undefined);
    expect(streamed.map((e) => e.chunk?.text ?? '').join('')).toBe('Sunny in Oslo, and Weft 1.0 is out.');
    expect(sent(summarizer, 0)).toEqual([
      'Request: Weather and news?\n\nAnswers:\n\n## weather\nSunny and 21 °C in Oslo.\n\n## news\nTop story: Weft 1.0 is out.',
    ]);
  });

  test("the summarizer's call is part of the run: on its stream and in the turn's usage totals", async () => {
    const summarizer = new ScriptedChatModel(['Sunny in Oslo, and Weft 1.0 is out.'], { name: 'summarizer' });
    const { agent, hostModel, weatherModel, newsModel } = setup([both], { summarizer });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const calls: string[] = [];
    const callbacks = {
      onEvent: (event: RunEvent) => {
        if (event.type === 'model-call') calls.push(`${event.agent}:${event.model}`);
      },
    };
    const events = await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'Weather and news?', callbacks }),
    );
    const made = [hostModel, weatherModel, newsModel, summarizer].reduce((n, m) => n + m.calls.length, 0);
    expect(made).toBe(6);
    expect(calls).toHaveLength(made);
    expect(calls).toContain('host:summarizer');
    const totals = events.at(-1)?.usageTotals;
    expect(totals?.calls).toBe(made);
    expect(totals?.byAgent.host?.calls).toBe(2);
    expect(Object.keys(totals?.byModel ?? {})).toContain('summarizer');
  });

  test('error path: a failing specialist is reported in the merged answer; alone, the host answers', async () => {
    const { runner } = setup([both], { failNews: true });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Weather and news?' }));
    expect(
      events.find((e) => e.message?.role === 'tool' && e.message.name === 'news')?.message,
    ).toMatchObject({
      status: 'error',
    });
    const answer = messageText(events.at(-2)?.message as Message);
    expect(answer).toMatch(
      /^## weather\nSunny and 21 °C in Oslo\.\n\n## news \(failed\)\nError: .*news feed down/,
    );
    const alone = setup(
      [{ toolCalls: [ask('h1', 'news', 'Headlines?')] }, 'Sorry, the news are unavailable.'],
      {
        failNews: true,
      },
    );
    const state = await alone.agent.compile().invoke({ input: 'Headlines?' });
    expect(state.output).toBe('Sorry, the news are unavailable.');
    expect(messageText(alone.hostModel.calls[1]?.messages.at(-1) as Message)).toContain('news feed down');
  });

  test('pause and resume: an approval inside one specialist pauses the host; the other does not run again', async () => {
    const { runner, weatherModel, newsModel } = setup([both], { approveNews: true });
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Weather and news?' }));
    const pause = paused.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({
      type: 'tool-approval',
      agent: 'news',
      calls: [{ name: 'headlines' }],
    });
    const resumed = await drain(
      runner.resume({ userId: 'u', sessionId: 's', decisions: { [pause?.id as string]: true } }),
    );
    expect(branchTrace(resumed)).toEqual([
      'news@host.news:result(headlines)',
      'news@host.news:assistant',
      'host@host:result(weather)',
      'host@host:result(news)',
      'host:assistant',
      'host:done',
    ]);
    expect([weatherModel.calls.length, newsModel.calls.length]).toEqual([2, 2]);
  });
});
