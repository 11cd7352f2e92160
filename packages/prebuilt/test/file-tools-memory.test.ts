import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const child = fileURLToPath(new URL('./fixtures/file-tools-at-limits.ts', import.meta.url));

/**
 * Issue #52: `grep` over a 9.9 MB file of short lines (under the 10 MB read cap) added 913 MB of heap
 * before its 200-result cap applied, aborting a process with a 512 MB heap and every run in it. The tools
 * run here in a child whose whole heap is 160 MB: they must stay within it, at their limits.
 */
test('grep, read_file and edit_file stay within a 160 MB heap on a 9.9 MB file of short lines', async () => {
  const run = spawn(
    process.execPath,
    ['--max-old-space-size=160', '--conditions=@weft/source', '--import', 'tsx', child],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  run.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  run.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise((resolve) => run.on('close', resolve));
  expect({ code, stderr: stderr.slice(-2000) }).toEqual({ code: 0, stderr: '' });
  const result = JSON.parse(stdout) as Record<string, unknown>;
  expect(result).toMatchObject({
    // 200 results and the note to narrow the search.
    grep: 201,
    grepLast: '[… more results; narrow the search]',
    grepCase: 201,
    read: '3299999\tab\n3300000\tab',
    edit: { status: 'error' },
  });
  expect((result.edit as { text: string }).text).toContain('more than the 10000000 a file may hold');
  console.info(`file tools at their limits: peak heap growth ${result.peakMb} MB`);
}, 300_000);
