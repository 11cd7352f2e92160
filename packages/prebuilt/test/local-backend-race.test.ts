import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { BackendError, LocalBackend } from '../src/index.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'weft-race-'));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const flipper = fileURLToPath(new URL('./fixtures/symlink-flipper.mjs', import.meta.url));

/** Runs `work` with a helper process flipping `<root>/<dir>` to a symlink to `outside`; returns its flips. */
async function whileFlipping(dir: string, work: () => Promise<void>): Promise<number> {
  const child = fork(flipper, [root, dir, outside], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  try {
    const [ready] = await once(child, 'message');
    expect(ready).toBe('ready');
    await work();
    const stats = once(child, 'message');
    child.send('stop');
    const [{ flips }] = (await stats) as [{ flips: number }];
    return flips;
  } finally {
    if (child.exitCode === null) child.kill();
    await exited;
  }
}

/** Runs `count` calls of `op`, `concurrency` at a time; counts the refusals (typed errors only). */
async function hammer(count: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  let refused = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (next < count && !failed) {
      const i = next++;
      await op(i).catch((error: unknown) => {
        failed ||= !BackendError.isInstance(error);
        if (failed) throw error;
        refused++;
      });
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: 8 }, lane));
  for (const lane of lanes) if (lane.status === 'rejected') throw lane.reason;
  return refused;
}

test('3000 writes while a parent directory is swapped for a symlink: nothing lands outside the root', async () => {
  const backend = new LocalBackend({ root });
  let refused = 0;
  const flips = await whileFlipping('work', async () => {
    refused = await hammer(3000, (i) => backend.write(`/work/deep/file-${i}.txt`, `content ${i}`));
  });
  expect(flips).toBeGreaterThan(0);
  expect(await readdir(outside)).toEqual([]);
  expect(refused).toBeLessThan(3000);
}, 600_000);

test('reads racing a swap never return a file from outside the root', async () => {
  await mkdir(join(outside, 'deep'));
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(outside, 'deep', 'secret.txt'), 'outside secret');
  await mkdir(join(root, 'work', 'deep'), { recursive: true });
  await writeFile(join(root, 'work', 'deep', 'secret.txt'), 'inside');
  const backend = new LocalBackend({ root });
  const seen = new Set<string>();
  await whileFlipping('work', async () => {
    await hammer(1000, async () => seen.add(await backend.read('/work/deep/secret.txt')));
  });
  expect(seen.has('outside secret')).toBe(false);
}, 600_000);
