// `weft serve <entry>`: the entry's compiled graphs (and its auth export) served on SQLite by default,
// or on PostgreSQL with --postgres, where a second server over the same database serves the same threads.
import { fileURLToPath } from 'node:url';
import { Client } from '@langchain/langgraph-sdk';
import pg from 'pg';
import { expect, test } from 'vitest';
import { runServeCli } from '../src/index.js';

const entry = fileURLToPath(new URL('./fixtures/entry.ts', import.meta.url));
const quiet = { out: () => undefined, err: () => undefined, env: {} };
const clientOf = (url: string) =>
  new Client({
    apiUrl: url,
    apiKey: null,
    defaultHeaders: { authorization: 'Bearer cli-token-0123456789' },
    callerOptions: { maxRetries: 0 },
  });

test('serves the compiled graphs an entry exports, under their export names, with its auth hook', async () => {
  const lines: string[] = [];
  const running = await runServeCli([entry, '--port', '0', '--db', ':memory:'], {
    ...quiet,
    out: (line) => lines.push(line),
  });
  try {
    expect(lines[0]).toMatch(
      /^weft serve: chat, approval on http:\/\/127\.0\.0\.1:\d+; A2A at http:\/\/127\.0\.0\.1:\d+\/a2a\/<graph>\/$/,
    );
    const client = clientOf(running!.url);
    expect((await client.assistants.search()).map((assistant) => assistant.graph_id).sort()).toEqual([
      'approval',
      'chat',
    ]);
    const anonymous = new Client({ apiUrl: running!.url, apiKey: null, callerOptions: { maxRetries: 0 } });
    await expect(anonymous.assistants.search()).rejects.toMatchObject({ status: 401 });
  } finally {
    await running?.close();
  }
});

test('serves the graphs over A2A unless --no-a2a', async () => {
  const card = (url: string) => fetch(`${url}/a2a/approval/.well-known/agent-card.json`);
  const on = await runServeCli([entry, '--port', '0', '--db', ':memory:'], quiet);
  const lines: string[] = [];
  const off = await runServeCli([entry, '--port', '0', '--db', ':memory:', '--no-a2a'], {
    ...quiet,
    out: (line) => lines.push(line),
  });
  try {
    expect((await card(on!.url)).status).toBe(200);
    expect((await card(off!.url)).status).toBe(401); // with auth on, an unknown route is refused first
    const authorized = await fetch(`${off!.url}/a2a/approval/.well-known/agent-card.json`, {
      headers: { authorization: 'Bearer cli-token-0123456789' },
    });
    expect(authorized.status).toBe(404);
    expect(lines[0]).not.toContain('A2A');
  } finally {
    await on?.close();
    await off?.close();
  }
});

test('bad arguments are named', async () => {
  await expect(runServeCli([], quiet)).rejects.toThrow(/needs an entry module/);
  await expect(runServeCli([entry, '--port', 'x'], quiet)).rejects.toThrow(/--port must be an integer/);
  await expect(runServeCli([entry, '--max-body', '0'], quiet)).rejects.toThrow(
    /--max-body must be a positive number/,
  );
  const help: string[] = [];
  expect(await runServeCli(['--help'], { ...quiet, out: (line) => help.push(line) })).toBeUndefined();
  expect(help[0]).toContain('Usage: weft serve <entry>');
});

test.skipIf(!process.env.WEFT_PG_URL)(
  'with --postgres, two servers share threads, runs and streams',
  async () => {
    const schema = `weft_server_cli_${process.pid}_${Date.now()}`;
    const args = [entry, '--port', '0', '--postgres', process.env.WEFT_PG_URL ?? '', '--schema', schema];
    const first = await runServeCli(args, quiet);
    const second = await runServeCli(args, quiet);
    try {
      const a = clientOf(first!.url);
      const b = clientOf(second!.url);
      const thread = await a.threads.create();
      const paused = (await a.runs.wait(thread.thread_id, 'approval', { input: { request: 'pg' } })) as {
        __interrupt__: unknown[];
      };
      expect(paused.__interrupt__).toHaveLength(1);
      expect((await b.threads.get(thread.thread_id)).status).toBe('interrupted');
      const run = await b.runs.create(thread.thread_id, 'approval', {
        command: { resume: 'ok' },
        streamMode: 'updates',
      });
      const events: string[] = [];
      for await (const part of a.runs.joinStream(thread.thread_id, run.run_id)) events.push(part.event);
      expect(events).toEqual(['metadata', 'updates', 'updates']);
      expect((await a.threads.getState(thread.thread_id)).values).toMatchObject({
        decision: 'ok',
        done: true,
      });
    } finally {
      await first?.close();
      await second?.close();
      const pool = new pg.Pool({ connectionString: process.env.WEFT_PG_URL });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  },
);
