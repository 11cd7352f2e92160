import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readFileTool } from '../src/deep/read-tools.js';
import { writeTools } from '../src/deep/write-tools.js';
import { BackendError, type BackendErrorReason, LocalBackend } from '../src/index.js';
import { call } from './helpers.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'weft-local-backend-'));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(outside, 'secret.txt'), 'top secret');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const refusedWith = (reason: BackendErrorReason) => (error: unknown) =>
  BackendError.isInstance(error) && error.reason === reason;

describe('LocalBackend', () => {
  test('reads, writes (creating folders), lists and walks inside the root', async () => {
    const backend = new LocalBackend({ root });
    await backend.write('/notes/plan.md', '# Plan');
    expect(await readFile(join(root, 'notes', 'plan.md'), 'utf8')).toBe('# Plan');
    expect(await backend.read('src/a.ts')).toBe('export const a = 1;\n');
    expect(await backend.ls('/')).toEqual([
      { path: '/notes', kind: 'directory' },
      { path: '/src', kind: 'directory' },
    ]);
    expect(await backend.files('/')).toEqual(['/notes/plan.md', '/src/a.ts']);
    await expect(backend.read('/src')).rejects.toSatisfy(refusedWith('NOT_A_FILE'));
    await expect(backend.read('/missing.txt')).rejects.toSatisfy(refusedWith('NOT_FOUND'));
  });

  test('refuses .. in any position', async () => {
    const backend = new LocalBackend({ root });
    for (const path of ['../outside/secret.txt', '/../outside/secret.txt', 'src/../../outside/secret.txt']) {
      await expect(backend.read(path)).rejects.toSatisfy(refusedWith('PATH_OUTSIDE_ROOT'));
      await expect(backend.write(path, 'x')).rejects.toSatisfy(refusedWith('PATH_OUTSIDE_ROOT'));
    }
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  test('an absolute host path names a file under the root, never the host file', async () => {
    const backend = new LocalBackend({ root });
    const hostPath = join(outside, 'secret.txt');
    await expect(backend.read(hostPath)).rejects.toSatisfy(refusedWith('NOT_FOUND'));
    await backend.write(hostPath, 'inside');
    expect(await readFile(join(root, ...hostPath.split('/').filter(Boolean)), 'utf8')).toBe('inside');
    expect(await readFile(hostPath, 'utf8')).toBe('top secret');
  });

  test('refuses symbolic links that resolve outside the root, for reading, writing and listing', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    await symlink(outside, join(root, 'linkdir'));
    await symlink(join(outside, 'new.txt'), join(root, 'dangling.txt'));
    await symlink(join(root, 'src', 'a.ts'), join(root, 'inside-link.ts'));
    const backend = new LocalBackend({ root });
    await expect(backend.read('/link.txt')).rejects.toSatisfy(refusedWith('PATH_OUTSIDE_ROOT'));
    await expect(backend.write('/link.txt', 'overwritten')).rejects.toSatisfy(
      refusedWith('PATH_OUTSIDE_ROOT'),
    );
    await expect(backend.read('/linkdir/secret.txt')).rejects.toSatisfy(refusedWith('PATH_OUTSIDE_ROOT'));
    await expect(backend.write('/linkdir/planted.txt', 'x')).rejects.toSatisfy(
      refusedWith('PATH_OUTSIDE_ROOT'),
    );
    await expect(backend.ls('/linkdir')).rejects.toSatisfy(refusedWith('PATH_OUTSIDE_ROOT'));
    await expect(backend.write('/dangling.txt', 'x')).rejects.toSatisfy(refusedWith('PATH_OUTSIDE_ROOT'));
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    await expect(readFile(join(outside, 'new.txt'))).rejects.toThrow();
    await expect(readFile(join(outside, 'planted.txt'))).rejects.toThrow();
    expect(await backend.read('/inside-link.ts')).toBe('export const a = 1;\n');
    expect((await backend.ls('/')).map((e) => e.path)).toEqual(['/inside-link.ts', '/src']);
    expect(await backend.files('/')).toEqual(['/src/a.ts']);
  });

  test('through the tools, an escape attempt becomes an error the model reads', async () => {
    const backend = new LocalBackend({ root });
    const [write] = writeTools(backend);
    const read = readFileTool(backend);
    const escaped = await call(read, { path: '../outside/secret.txt' });
    expect(escaped.status).toBe('error');
    expect(escaped.text).toContain('refused "../outside/secret.txt"');
    expect(escaped.text).not.toContain('top secret');
    expect((await call(write!, { path: '../outside/secret.txt', content: 'pwned' })).status).toBe('error');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  test('a root that does not exist is reported, not created', async () => {
    const backend = new LocalBackend({ root: join(base, 'nope') });
    await expect(backend.read('/a')).rejects.toSatisfy(refusedWith('NOT_FOUND'));
  });
});
