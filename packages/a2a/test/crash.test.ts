import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TaskState } from '@a2a-js/sdk';
import { ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { SqliteCheckpointer, SqliteSessionService, SqliteStore } from '@weft/store-sqlite';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { type A2aServer, serveA2a } from '../src/index.js';
import { artifactText, asTask, sdkClient, userText } from './fixtures/clients.js';

const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url));
const child = fileURLToPath(new URL('fixtures/crashing-server.ts', import.meta.url));
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts the server process; resolves with its URL and a function waiting for a line of its output. */
async function startProcess(
  filename: string,
): Promise<{ process: ChildProcess; url: string; line(prefix: string): Promise<string> }> {
  const process = spawn(
    globalThis.process.execPath,
    ['--conditions=@weft/source', '--import', tsx, child, filename],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  cleanups.push(() => process.kill('SIGKILL'));
  const lines: string[] = [];
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  createInterface({ input: process.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wait of waiting.splice(0)) {
      if (line.startsWith(wait.prefix)) wait.resolve(line);
      else waiting.push(wait);
    }
  });
  const line = (prefix: string) =>
    new Promise<string>((resolve) => {
      const seen = lines.find((l) => l.startsWith(prefix));
      if (seen) resolve(seen);
      else waiting.push({ prefix, resolve });
    });
  const url = (await line('URL ')).slice(4);
  return { process, url, line };
}

it('continues a task whose server process was killed mid-run (SIGKILL), in a new server on the same SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-a2a-crash-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const filename = join(dir, 'a2a.db');
  const first = await startProcess(filename);
  const client = await sdkClient(first.url);
  const returnImmediately = {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately: true,
  };
  const task = asTask(
    await client.sendMessage({
      tenant: '',
      message: userText('Count shelf B3'),
      configuration: returnImmediately,
      metadata: {},
    }),
  );
  await first.line('ENTERED B3');
  const exited = new Promise((resolve) => first.process.once('exit', resolve));
  first.process.kill('SIGKILL');
  await exited;

  const counted: string[] = [];
  const count = tool({
    name: 'count_stock',
    description: 'Counts the stock',
    parameters: z.object({ shelf: z.string() }),
    execute: ({ shelf }) => {
      counted.push(shelf);
      return `${shelf}: 12 boxes`;
    },
  });
  const agent = new ChatModelAgent({
    name: 'stock',
    model: new ScriptedChatModel(['Shelf B3 holds 12 boxes.']),
    tools: [count],
  });
  const stores = {
    taskStore: new SqliteStore({ filename }),
    sessionService: new SqliteSessionService({ filename }),
    checkpointer: new SqliteCheckpointer({ filename }),
  };
  cleanups.push(async () => {
    await stores.taskStore.close();
    await stores.sessionService.close();
    await stores.checkpointer.close();
  });
  const second: A2aServer = await serveA2a({ agent, port: 0, ...stores });
  cleanups.push(() => second.close());
  const again = await sdkClient(second.url);
  // The recovered run may finish before a subscriber attaches: follow it if it is still running.
  let done = await again.getTask({ tenant: '', id: task.id, historyLength: undefined });
  if (done.status?.state === TaskState.TASK_STATE_WORKING) {
    try {
      for await (const _event of again.resubscribeTask({ tenant: '', id: task.id })) {
        // read to the end: the stream closes at the terminal status
      }
    } catch {
      // it ended between the two requests: resubscribing to a finished task is refused
    }
    done = await again.getTask({ tenant: '', id: task.id, historyLength: undefined });
  }
  expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(artifactText(done)).toBe('Shelf B3 holds 12 boxes.');
  expect(counted).toEqual(['B3']);
}, 600_000);
