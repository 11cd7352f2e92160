import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, MemorySessionService, Runner, tool } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { cassetteModel } from '../src/index.js';

/** A configured secret: a CRM token the tool uses, which the user also pastes into the prompt. */
const TOKEN = 'crm-2f9c81d7e4a6b035';

function agentOn(model: ReturnType<typeof cassetteModel>) {
  const crm = tool({
    name: 'crm',
    description: 'Looks a customer up',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => `customer ${id} (fetched with token ${TOKEN})`,
  });
  return new ChatModelAgent({ name: 'desk', model, tools: [crm] });
}

async function ask(model: ReturnType<typeof cassetteModel>): Promise<string[]> {
  const runner = new Runner({ agent: agentOn(model), sessionService: new MemorySessionService() });
  const events = await drain(
    runner.run({ userId: 'u1', sessionId: 's1', message: `Use token ${TOKEN} to find customer 7` }),
  );
  return events
    .filter((event) => !event.partial && event.message?.role === 'assistant')
    .map((event) => String(event.message?.content ?? ''));
}

/**
 * Issue #52: eval cassettes redact configured secrets from prompts and tool results (and answers), and a
 * replay with the same secret in its prompt still finds its recording.
 */
it('writes no configured secret into a cassette, and replays the redacted recording', async () => {
  const path = join(await mkdtemp(join(tmpdir(), 'weft-cassette-secrets-')), 'desk.cassette.json');
  const real = new ScriptedChatModel(
    [{ toolCalls: [{ name: 'crm', arguments: { id: '7' } }] }, `Customer 7 found (token ${TOKEN}).`],
    { name: 'real-model' },
  );
  const recording = cassetteModel({ path, mode: 'record', model: real, secrets: [TOKEN] });
  const answers = await ask(recording);
  expect(answers.at(-1)).toBe(`Customer 7 found (token ${TOKEN}).`);
  const file = await readFile(path, 'utf8');
  expect(file).not.toContain(TOKEN);
  expect(file).toContain('Use token [REDACTED] to find customer 7');
  expect(file).toContain('fetched with token [REDACTED]');

  const replaying = cassetteModel({ path, mode: 'replay', name: 'real-model', secrets: [TOKEN] });
  const replayed = await ask(replaying);
  expect(replaying.misses).toEqual([]);
  expect(replaying.hits).toBe(2);
  expect(replayed.at(-1)).toBe('Customer 7 found (token [REDACTED]).');
});
