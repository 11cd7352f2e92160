import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, tool } from '@weft/adk';
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

function agentOn(model: ReturnType<typeof cassetteModel>) {
  return new ChatModelAgent({
    name: 'weather_agent',
    instruction: 'You report the weather.',
    model,
    tools: [weather],
  });
}

const caseFor = (id: string, city: string) => ({
  id,
  turns: [{ user: `Weather in ${city}?`, expect: { tools: [{ name: 'weather', args: { city } }] } }],
});

async function tempPath(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'weft-cassette-keys-')), 'weather.cassette.json');
}

describe('cassette keys', () => {
  it('replays a recording under any user and session: every repeat of a case hits', async () => {
    const path = await tempPath();
    const set = parseEvalSet({ name: 'weather', cases: [caseFor('paris', 'Paris')] });
    const real = new ScriptedChatModel(
      [{ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, 'It is sunny in Paris.'],
      { name: 'real-model' },
    );
    await runEval({
      set,
      target: agentTarget(agentOn(cassetteModel({ path, mode: 'record', model: real }))),
    });
    const replaying = cassetteModel({ path, mode: 'replay', name: 'real-model' });
    const report = await runEval({
      set,
      target: agentTarget(agentOn(replaying)),
      repeats: 3,
      userId: 'someone-else',
    });
    expect(replaying.misses).toEqual([]);
    expect(report.cases[0]?.runs.map((run) => run.pass)).toEqual([true, true, true]);
    expect(replaying.hits).toBe(6);
  });

  it('writes no user, session or app ids into the cassette file', async () => {
    const path = await tempPath();
    const set = parseEvalSet({ name: 'weather', cases: [caseFor('paris', 'Paris')] });
    const real = new ScriptedChatModel(
      [{ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, 'Sunny.'],
      { name: 'real-model' },
    );
    await runEval({
      set,
      target: agentTarget(agentOn(cassetteModel({ path, mode: 'record', model: real }))),
      userId: 'user-7f3a',
    });
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('user-7f3a');
    expect(text).not.toContain('paris#0'); // the case run's session id
    expect(text).not.toContain('"run"');
    expect(text).not.toContain('sessionId');
  });

  it('names the recording that really is nearest to a miss, and shows where it differs', async () => {
    const path = await tempPath();
    const set = parseEvalSet({
      name: 'weather',
      cases: [caseFor('paris', 'Paris'), caseFor('tokyo', 'Tokyo'), caseFor('lima', 'Lima')],
    });
    const real = new ScriptedChatModel(
      (messages) => {
        const asked = String(messages.at(-1)?.content ?? '');
        const city = /in (\w+)\?/.exec(asked)?.[1];
        return city ? { toolCalls: [{ name: 'weather', arguments: { city } }] } : 'Sunny.';
      },
      { name: 'real-model' },
    );
    await runEval({
      set,
      target: agentTarget(agentOn(cassetteModel({ path, mode: 'record', model: real }))),
      concurrency: 1,
    });
    // Tokyo was recorded second (neither first nor last); the question changes by one word
    const changed = parseEvalSet({
      name: 'weather',
      cases: [
        {
          id: 'tokyo',
          turns: [{ user: 'Weather in Tokyo today?', expect: { tools: [{ name: 'weather' }] } }],
        },
      ],
    });
    const replaying = cassetteModel({ path, mode: 'replay', name: 'real-model' });
    const report = await runEval({ set: changed, target: agentTarget(agentOn(replaying)) });
    expect(report.totals.passed).toBe(0);
    const [miss] = replaying.misses;
    expect(miss?.nearest?.index).toBe(2); // the first call of the Tokyo case: the third recording
    expect(miss?.difference).toBe(
      'messages[1].content: recorded "Weather in Tokyo?", asked "Weather in Tokyo today?"',
    );
    expect(report.cases[0]?.runs[0]?.error).toContain(
      'nearest is recording 3 (of 6), which differs at messages[1].content: recorded "Weather in Tokyo?", asked "Weather in Tokyo today?"',
    );
  });
});
