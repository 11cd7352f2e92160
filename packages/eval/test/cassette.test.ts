import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, concatMessageChunks, tool, userMessage } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTarget, cassetteModel, parseEvalSet, runEval } from '../src/index.js';

const weather = tool({
  name: 'weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

function agentOn(model: ReturnType<typeof cassetteModel>, instruction = 'You report the weather.') {
  return new ChatModelAgent({ name: 'weather_agent', instruction, model, tools: [weather] });
}

const set = parseEvalSet({
  name: 'weather',
  cases: [
    {
      id: 'paris',
      turns: [
        {
          user: 'Weather in Paris?',
          expect: { tools: [{ name: 'weather', args: { city: 'Paris' } }], response: { contains: 'sunny' } },
        },
      ],
    },
  ],
});

async function tempPath(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'weft-cassette-')), 'weather.cassette.json');
}

describe('cassettes', () => {
  it('records real calls once and replays them without the model', async () => {
    const path = await tempPath();
    const real = new ScriptedChatModel(
      [{ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, 'It is sunny in Paris.'],
      {
        name: 'real-model',
      },
    );
    const recorded = await runEval({
      set,
      target: agentTarget(agentOn(cassetteModel({ path, mode: 'record', model: real }))),
    });
    expect(recorded.totals.passed).toBe(1);
    expect(real.calls).toHaveLength(2);

    const replaying = cassetteModel({ path, mode: 'replay', name: 'real-model' });
    const replayed = await runEval({ set, target: agentTarget(agentOn(replaying)) });
    expect(replayed.totals.passed).toBe(1);
    expect(replaying.hits).toBe(2);
    expect(replaying.misses).toEqual([]);
    expect(real.calls).toHaveLength(2);
  });

  it('reports a changed request as a miss and never re-records it', async () => {
    const path = await tempPath();
    const real = new ScriptedChatModel(
      [{ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, 'sunny'],
      { name: 'm' },
    );
    await runEval({
      set,
      target: agentTarget(agentOn(cassetteModel({ path, mode: 'record', model: real }))),
    });
    const before = await readFile(path, 'utf8');

    const replaying = cassetteModel({ path, mode: 'replay', name: 'm' });
    const report = await runEval({
      set,
      target: agentTarget(agentOn(replaying, 'You report the weather politely.')),
    });
    expect(report.totals.passed).toBe(0);
    expect(report.cases[0]?.runs[0]?.error).toContain('has no recording of this m call');
    expect(replaying.misses).toHaveLength(1);
    expect(replaying.misses[0]?.difference).toBe(
      'messages[0].content: recorded "You report the weather.", asked "You report the weather politely."',
    );
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('replays streams as chunks that join into the recorded message, and the same request in turn', async () => {
    const path = await tempPath();
    const real = new ScriptedChatModel(['first answer', 'second answer'], { name: 'm' });
    const recorder = cassetteModel({ path, mode: 'record', model: real });
    const ask = [userMessage('again?')];
    const chunks = [];
    for await (const chunk of recorder.stream(ask)) chunks.push(chunk);
    expect(concatMessageChunks(chunks).content).toBe('first answer');
    await recorder.generate(ask);

    const replay = cassetteModel({ path, mode: 'replay', name: 'm' });
    const replayed = [];
    for await (const chunk of replay.stream(ask)) replayed.push(chunk);
    expect(concatMessageChunks(replayed).content).toBe('first answer');
    expect((await replay.generate(ask)).content).toBe('second answer');
    expect((await replay.generate(ask)).content).toBe('first answer');
  });

  it('refuses bad set-ups with typed errors', async () => {
    const path = await tempPath();
    expect(() => cassetteModel({ path, mode: 'replay', name: 'm' })).toThrow(
      /does not exist; record it first/,
    );
    expect(() => cassetteModel({ path, mode: 'record' })).toThrow(/recording needs the real `model`/);
    await writeFile(path, '{"version":2}');
    expect(() => cassetteModel({ path, mode: 'replay', name: 'm' })).toThrow(
      /is not readable: expected \{ version: 1/,
    );
  });
});
