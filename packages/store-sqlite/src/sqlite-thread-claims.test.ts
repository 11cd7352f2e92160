import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointConflictError } from '@weft/compose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});
