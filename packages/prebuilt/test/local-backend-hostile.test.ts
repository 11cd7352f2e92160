import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { link, mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readFileTool, searchTools } from '../src/deep/read-tools.js';
import { writeTools } from '../src/deep/write-tools.js';
import { BackendError, type BackendErrorReason, LocalBackend } from '../src/index.js';
import { call } from './helpers.js';

let base: string;
let root: string;
let outside: string;
let fifo: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'weft-hostile-'));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  fifo = join(root, 'pipe');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  await writeFile(join(outside, 'secret.txt'), 'top secret');
});
afterEach(async () => {
  // Releases anything still blocked opening the FIFO (an opener of both ends never blocks).
  await open(fifo, constants.O_RDWR | constants.O_NONBLOCK).then(
    (handle) => handle.close(),
    () => undefined,
  );
  await rm(base, { recursive: true, force: true });
});

const refusedWith = (reason: BackendErrorReason) => (error: unknown) =>
  BackendError.isInstance(error) && error.reason === reason;

describe('non-regular files', () => {
  test('a FIFO is refused at once and never ties up the thread pool', async () => {
    execFileSync('mkfifo', [fifo]);
    const backend = new LocalBackend({ root });
    // More concurrent reads than libuv has threads (4): a blocking open would starve every fs call.
    const reads = Array.from({ length: 8 }, () => backend.read('/pipe').catch((error: unknown) => error));
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('alpha\n');
    for (const error of await Promise.all(reads)) expect(error).toSatisfy(refusedWith('NOT_A_REGULAR_FILE'));
    await expect(backend.write('/pipe', 'x')).rejects.toSatisfy(refusedWith('NOT_A_REGULAR_FILE'));
    await expect(backend.files('/pipe')).rejects.toSatisfy(refusedWith('NOT_A_REGULAR_FILE'));
    expect(await backend.files('/')).toEqual(['/a.txt']);
    expect((await backend.ls('/')).map((entry) => entry.path)).toEqual(['/a.txt']);
    const [, , grep] = searchTools(backend);
    expect((await call(grep!, { pattern: 'alpha' })).text).toBe('/a.txt:1: alpha');
  });

  test('a write is refused when the file has other hard links, and nothing is changed', async () => {
    await link(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    const backend = new LocalBackend({ root });
    await expect(backend.write('/hard.txt', 'pwned')).rejects.toSatisfy(refusedWith('HARD_LINKED'));
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    // Reading one is allowed (package stores hard-link their files); the README says so.
    expect(await backend.read('/hard.txt')).toBe('top secret');
  });
});

describe('abort signal', () => {
  test('an aborted signal stops an operation before it touches the disk', async () => {
    const backend = new LocalBackend({ root });
    await expect(backend.write('/new.txt', 'x', { signal: AbortSignal.abort() })).rejects.toSatisfy(
      refusedWith('ABORTED'),
    );
    await expect(readFile(join(root, 'new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('aborting while an operation runs rejects it with ABORTED (code ABORTED)', async () => {
    const backend = new LocalBackend({ root });
    const controller = new AbortController();
    const pending = backend.read('/a.txt', { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toSatisfy(refusedWith('ABORTED'));
    expect(error).toMatchObject({ code: 'ABORTED' });
  });

  test('a timeout that is not positive is refused when the backend is made', () => {
    expect(() => new LocalBackend({ root, timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
  });
});

describe('errors never show the host path of the root', () => {
  const hostFree = (text: string) => {
    expect(text).not.toContain(base);
    expect(text).not.toContain('/proc/');
  };

  test('ENAMETOOLONG, ELOOP and a missing root name only virtual paths', async () => {
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
    const backend = new LocalBackend({ root });
    const long = `/${'n'.repeat(300)}.txt`;
    for (const attempt of [
      () => backend.read(long),
      () => backend.write(long, 'x'),
      () => backend.write(`/dir${long}/x`, 'x'),
      () => backend.read('/loop-a'),
      () => backend.write('/loop-a/x.txt', 'x'),
      () => backend.ls('/loop-a'),
      () => new LocalBackend({ root: join(base, 'missing') }).read('/a.txt'),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(BackendError.isInstance(error)).toBe(true);
      hostFree((error as Error).message);
    }
    await expect(backend.read('/loop-a')).rejects.toSatisfy(refusedWith('TOO_MANY_LINKS'));
    await expect(backend.read(long)).rejects.toSatisfy(refusedWith('INVALID_PATH'));
  });

  test('through the tools the model reads the virtual path only', async () => {
    const backend = new LocalBackend({ root });
    const read = readFileTool(backend);
    const [write] = writeTools(backend);
    const long = `/${'n'.repeat(300)}`;
    for (const result of [
      await call(read, { path: long }),
      await call(write!, { path: long, content: 'x' }),
    ]) {
      expect(result.status).toBe('error');
      expect(result.text).toContain(long);
      hostFree(result.text);
    }
  });
});
