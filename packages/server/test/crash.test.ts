// Fault test: a server process killed mid-run (SIGKILL, nothing graceful). The next server over the same
// database continues the run from its last checkpoint — the finished node is not run again — and a
// client reconnecting with Last-Event-ID gets every event it missed, numbered on, none twice.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, expect, test } from 'vitest';
import { Gate, slowGraph } from './fixtures/graphs.js';
import { startServer } from './fixtures/start.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

test('a run whose server was killed is continued by the next one, and its stream resumes', {
  timeout: 600_000,
}, async () => {
  const database = join(mkdtempSync(join(tmpdir(), 'weft-crash-')), 'server.db');
  child = spawn(
    process.execPath,
    ['--conditions=@weft/source', '--import', 'tsx', 'test/fixtures/crash-server.ts', database],
    {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child?.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child?.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    child?.on('exit', (code) => reject(new Error(`crash server exited (${code}):\n${output}`)));
  });
  const doomed = new Client({ apiUrl: url, apiKey: null, callerOptions: { maxRetries: 0 } });
  const thread = await doomed.threads.create();
  const seen: Array<{ id?: string; event: string; data: unknown }> = [];
  let runId = '';
  for await (const part of doomed.runs.stream(thread.thread_id, 'slow', {
    input: { log: [] },
    streamMode: ['updates', 'custom'],
  })) {
    seen.push(part);
    if (part.event === 'metadata') runId = (part.data as { run_id: string }).run_id;
    if (part.event === 'custom') break; // the run waits at the gate, its first node done
  }
  const exited = new Promise((resolve) => child?.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;

  const gate = new Gate();
  gate.open();
  const next = await startServer({ graphs: { slow: slowGraph(() => gate) }, database });
  try {
    const rest: Array<{ id?: string; event: string; data: unknown }> = [];
    for await (const part of next.client.runs.joinStream(thread.thread_id, runId, {
      lastEventId: seen.at(-1)?.id ?? '-1',
    }))
      rest.push(part);
    const all = [...seen, ...rest];
    expect(all.map((part) => Number(part.id))).toEqual(all.map((_, index) => index));
    expect(rest.map((part) => part.event)).toEqual(['metadata', 'custom', 'updates']);
    expect(rest[0]?.data).toMatchObject({ run_id: runId, attempt: 2 });
    expect((await next.client.runs.get(thread.thread_id, runId)).status).toBe('success');
    expect((await next.client.threads.getState(thread.thread_id)).values).toEqual({
      log: ['first:', 'second:'],
    });
  } finally {
    await next.served.close();
  }
});
