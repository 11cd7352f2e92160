import { toolMessage } from '@weft/adk';
import { describe, expect, test } from 'vitest';
import { globToRegExp } from '../src/deep/glob-pattern.js';
import { offloadLargeResults } from '../src/deep/offload-large-results.js';
import { readFileTool, searchTools } from '../src/deep/read-tools.js';
import { writeTools } from '../src/deep/write-tools.js';
import { BackendError, MemoryBackend } from '../src/index.js';
import { call } from './helpers.js';

function setup(files: Record<string, string> = {}) {
  const backend = new MemoryBackend(files);
  const [ls, glob, grep] = searchTools(backend, { maxResults: 3 });
  const [write, edit] = writeTools(backend);
  return {
    backend,
    ls: ls!,
    glob: glob!,
    grep: grep!,
    write: write!,
    edit: edit!,
    read: readFileTool(backend, { maxReadChars: 60 }),
  };
}

describe('file tools over a MemoryBackend', () => {
  test('ls lists folders and files; read_file numbers lines and pages with offset', async () => {
    const { ls, read } = setup({ '/a.txt': 'one\ntwo\nthree\n', '/src/x.ts': 'x', '/src/deep/y.ts': 'y' });
    expect((await call(ls, {})).text).toBe('/a.txt (14 bytes)\n/src/');
    expect((await call(ls, { path: 'src' })).text).toBe('/src/deep/\n/src/x.ts (1 bytes)');
    expect((await call(read, { path: '/a.txt' })).text).toBe('     1\tone\n     2\ttwo\n     3\tthree');
    expect((await call(read, { path: '/a.txt', offset: 1, limit: 1 })).text).toBe(
      '     2\ttwo\n[… 1 more lines; read on with offset=2]',
    );
    expect(await call(read, { path: '/a.txt', offset: 9 })).toMatchObject({ status: 'error' });
  });

  test('read_file stops at its character cap and says where to read on', async () => {
    const { read } = setup({ '/long.txt': Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') });
    const { text } = await call(read, { path: '/long.txt' });
    expect(text.split('\n').at(-1)).toMatch(/^\[… \d+ more lines; read on with offset=\d+\]$/);
    expect(text.length).toBeLessThan(120);
  });

  test('write_file creates folders; edit_file replaces exact text', async () => {
    const { backend, write, edit } = setup();
    expect((await call(write, { path: 'docs/plan.md', content: 'a b a' })).text).toBe(
      'Wrote 5 characters to /docs/plan.md',
    );
    expect((await call(edit, { path: '/docs/plan.md', old_string: 'b', new_string: '$&c' })).text).toBe(
      'Replaced 1 occurrence in /docs/plan.md',
    );
    expect(backend.toJSON()).toEqual({ '/docs/plan.md': 'a $&c a' });
    await call(edit, { path: '/docs/plan.md', old_string: 'a', new_string: 'z', replace_all: true });
    expect(await backend.read('/docs/plan.md')).toBe('z $&c z');
  });

  test('edit_file fails clearly when the text is missing or not unique, and changes nothing', async () => {
    const { backend, edit } = setup({ '/f.txt': 'same same' });
    const missing = await call(edit, { path: '/f.txt', old_string: 'other', new_string: 'x' });
    expect(missing.status).toBe('error');
    expect(missing.text).toContain('old_string was not found in /f.txt');
    const twice = await call(edit, { path: '/f.txt', old_string: 'same', new_string: 'x' });
    expect(twice.text).toContain('old_string occurs 2 times in /f.txt; include more surrounding text');
    expect(await backend.read('/f.txt')).toBe('same same');
  });

  test('glob and grep search names and contents, capped at maxResults', async () => {
    const { glob, grep } = setup({
      '/src/a.ts': 'export const a = 1;',
      '/src/b.tsx': 'TODO: b',
      '/src/lib/c.ts': 'todo: c',
      '/README.md': 'TODO: docs',
    });
    expect((await call(glob, { pattern: '**/*.ts' })).text).toBe('/src/a.ts\n/src/lib/c.ts');
    expect((await call(glob, { pattern: '*.{ts,tsx}', path: '/src' })).text).toBe('/src/a.ts\n/src/b.tsx');
    expect((await call(grep, { pattern: 'TODO', glob: '**/*.{ts,tsx}' })).text).toBe('/src/b.tsx:1: TODO: b');
    expect((await call(grep, { pattern: 'todo', ignore_case: true })).text).toBe(
      '/README.md:1: TODO: docs\n/src/b.tsx:1: TODO: b\n/src/lib/c.ts:1: todo: c',
    );
    expect((await call(glob, { pattern: '**/*.nothing' })).text).toBe('no files match "**/*.nothing" in /');
  });

  test('paths with .. are refused by the backend', async () => {
    const { read, write } = setup({ '/a.txt': 'a' });
    const refused = await call(read, { path: '../a.txt' });
    expect(refused.status).toBe('error');
    expect(refused.text).toContain('".." is not allowed');
    expect((await call(write, { path: '/x/../../y', content: '' })).status).toBe('error');
    await expect(new MemoryBackend().read('/a/../b')).rejects.toSatisfy(
      (error) => BackendError.isInstance(error) && error.reason === 'PATH_OUTSIDE_ROOT',
    );
  });

  test('globToRegExp handles **, *, ? and braces', () => {
    expect(globToRegExp('src/**/*.ts').test('src/a.ts')).toBe(true);
    expect(globToRegExp('src/**/*.ts').test('src/a/b/c.ts')).toBe(true);
    expect(globToRegExp('*.ts').test('a/b.ts')).toBe(false);
    expect(globToRegExp('?.md').test('a.md')).toBe(true);
    expect(globToRegExp('a.(b)').test('a.(b)')).toBe(true);
  });
});

describe('offloadLargeResults', () => {
  test('writes a large result to /large_results/<id>.txt and points the model to it', async () => {
    const backend = new MemoryBackend();
    const offload = offloadLargeResults({ backend, maxChars: 50, previewLines: 2 });
    const big = Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n');
    const next = async () => toolMessage(big, { toolCallId: 'call/7', name: 'query', status: 'success' });
    // The offloader never reads its hook context, so an empty one stands in for it.
    const ctx = {} as Parameters<NonNullable<typeof offload.wrapToolCall>>[2];
    const result = await offload.wrapToolCall!({ id: 'call/7', name: 'query', arguments: '{}' }, next, ctx);
    expect(await backend.read('/large_results/call_7.txt')).toBe(big);
    expect(result).toMatchObject({ role: 'tool', toolCallId: 'call/7', name: 'query', status: 'success' });
    expect(result.content).toBe(
      `The result of query was too large to show here (${big.length} characters).\nIt was saved to /large_results/call_7.txt: read it with read_file (use offset and limit to page through it).\nIt starts with:\nrow 0\nrow 1`,
    );
    const small = await offload.wrapToolCall!(
      { id: 'c2', name: 'query', arguments: '{}' },
      async () => toolMessage('tiny', { toolCallId: 'c2', name: 'query' }),
      ctx,
    );
    expect(small.content).toBe('tiny');
    const skipped = await offload.wrapToolCall!({ id: 'c3', name: 'read_file', arguments: '{}' }, next, ctx);
    expect(skipped.content).toBe(big);
  });
});
