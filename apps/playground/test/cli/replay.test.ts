// Issue #48: `npx @weft/playground replay <thread>` end to end: a recorded agent thread on a SQLite file,
// replayed through the bin against a module's current code.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { userMessage } from '@weft/adk';
import { SqliteCheckpointer } from '@weft/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { liveModel, weatherAgent } from './fixtures/weather-graphs.ts';

const execute = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/weft.mjs', import.meta.url));
const module = fileURLToPath(new URL('./fixtures/weather-graphs.ts', import.meta.url));

async function weft(args: readonly string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await execute(process.execPath, [bin, ...args], { timeout: 120_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('weft replay', () => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-replay-cli-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('replays a recorded agent thread: unchanged, a changed prompt, a changed tool', {
    timeout: 600_000,
  }, async () => {
    const file = join(directory, 'weft.db');
    const checkpointer = new SqliteCheckpointer({ filename: file });
    const recorded = weatherAgent(liveModel(), 'Answer in English.', (city) => `sunny in ${city}`);
    await recorded
      .withOptions({ checkpointer })
      .invoke({ messages: [userMessage('Weather in Paris?')] }, { threadId: 'chat-1' });
    await checkpointer.close();
    const replay = (graph: string) =>
      weft(['replay', 'chat-1', '--module', module, '--graph', graph, '--db', file]);

    const same = await replay('weather');
    expect(same).toMatchObject({ code: 0 });
    expect(same.stdout).toContain('0 of 3 replayed nodes differ (thread "chat-1")');

    const prompt = await replay('weatherFrench');
    expect(prompt.code).toBe(1);
    expect(prompt.stdout).toContain('step 2 · node "model" changed');
    expect(prompt.stdout).toMatch(
      /messages: recorded .*Paris: sunny in Paris\..* → replayed .*Paris : sunny in Paris, en français\./,
    );

    const tool = await replay('weatherRain');
    expect(tool.code).toBe(1);
    expect(tool.stdout).toContain('step 1 · node "tools" changed');
    expect(tool.stdout).toContain('rain in Paris');

    const missing = await replay('nothing');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/exports no graph "nothing" \(graphs and factories: .*weather/);
  });
});
