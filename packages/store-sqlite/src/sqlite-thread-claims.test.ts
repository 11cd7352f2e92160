import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointConflictError, END, START, StateGraph } from '@weft/compose';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

let directory: string;
let filename: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-claims-'));
  filename = join(directory, 'weft.db');
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
});

/** A child process that claims `thread` on the file, prints `claimed`, and waits to be killed. */
function holder(thread: string): Promise<ChildProcess> {
  const script = `
    const { SqliteCheckpointer } = await import(${JSON.stringify(new URL('./sqlite-checkpointer.ts', import.meta.url).href)});
    const store = new SqliteCheckpointer({ filename: ${JSON.stringify(filename)} });
    await store.claimThread(${JSON.stringify(thread)});
    console.log('claimed');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(
    'node',
    ['--conditions=@weft/source', '--import', 'tsx', '--input-type=module', '-e', script],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('claimed')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`the claiming child exited early (${code})`)));
  });
}

describe('SqliteCheckpointer thread claims across connections and processes', () => {
  it('two stores on one file in one process: the second claim conflicts until released', async () => {
    const first = new SqliteCheckpointer({ filename });
    const second = new SqliteCheckpointer({ filename });
    const claim = await first.claimThread('t1');
    await expect(second.claimThread('t1')).rejects.toSatisfy(CheckpointConflictError.isInstance);
    await claim.release();
    await (await second.claimThread('t1')).release();
    await first.close();
    await second.close();
  });

  it('a live process holds its claim; a claim of a killed process is taken over', async () => {
    const child = await holder('t1');
    const store = new SqliteCheckpointer({ filename });
    const error = await store.claimThread('t1').catch((caught: unknown) => caught);
    expect(CheckpointConflictError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`process ${child.pid}`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const claim = await store.claimThread('t1');
    await claim.release();
    await store.close();
  }, 300_000);

  it('numbers the claims of a thread: each claim gets the next epoch, kept across releases', async () => {
    const store = new SqliteCheckpointer({ filename });
    const first = await store.claimThread('t1');
    await first.release();
    const second = await store.claimThread('t1');
    expect([first.epoch, second.epoch]).toEqual([1, 2]);
    await second.release();
    await store.close();
  });

  it('a holder whose thread was taken over is told, and its writes are refused', async () => {
    const store = new SqliteCheckpointer({ filename });
    const claim = await store.claimThread('t1');
    // Another writer takes the thread over (as a process that judged this one dead would).
    const other = new BetterSqlite3(filename);
    other
      .prepare("UPDATE weft_thread_claims SET token = 'other', epoch = epoch + 1 WHERE thread_id = 't1'")
      .run();
    other.close();
    const record = {
      threadId: 't1',
      ns: '',
      id: 'c1',
      parentId: null,
      baseId: 'c1',
      seq: 1,
      step: 0,
      source: 'input' as const,
      createdAt: '2024-01-01T00:00:00.000Z',
      metadata: {},
      payload: '{}',
    };
    const error = await store.put(record).catch((caught: unknown) => caught);
    expect(CheckpointConflictError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('lost its claim (epoch 1, taken over at epoch 2)');
    expect(claim.lost?.aborted).toBe(true);
    expect(await store.get('t1')).toBeUndefined();
    await claim.release();
    await store.close();
  });

  it('a run whose claim is taken over stops before its next step, and none of its writes land', async () => {
    const store = new SqliteCheckpointer({ filename });
    const ran: string[] = [];
    const app = new StateGraph(z.object({ log: z.array(z.string()) }))
      .addNode('a', (s) => {
        ran.push('a');
        // Mid-step, another writer takes the thread over.
        const other = new BetterSqlite3(filename);
        other
          .prepare("UPDATE weft_thread_claims SET token = 'other', epoch = epoch + 1 WHERE thread_id = 't2'")
          .run();
        other.close();
        return { log: [...s.log, 'a'] };
      })
      .addNode('b', (s) => {
        ran.push('b');
        return { log: [...s.log, 'b'] };
      })
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile({ checkpointer: store });
    const error = await app.invoke({ log: [] }, { threadId: 't2' }).catch((caught: unknown) => caught);
    expect(CheckpointConflictError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('lost its claim');
    expect(ran).toEqual(['a']);
    // The input checkpoint was stored under the claim; the step of `a` was not.
    expect((await store.list('t2')).map((record) => record.step)).toEqual([-1]);
    await store.close();
  });
});
