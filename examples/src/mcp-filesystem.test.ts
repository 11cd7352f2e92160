import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { main } from './mcp-filesystem.js';

test('the MCP example reads and (after approval) writes files through the filesystem server', async () => {
  const lines: string[] = [];
  const { answer, root } = await main((line) => lines.push(line));
  expect(answer).toBe('I wrote summary.md with a one-line summary of notes.md.');
  expect(lines.some((l) => l.startsWith('librarian (tool): [FILE] notes.md'))).toBe(true);
  expect(lines.some((l) => l.startsWith('approval asked:') && l.includes('fs_write_file'))).toBe(true);
  expect(await readFile(join(root, 'summary.md'), 'utf8')).toBe('- Weft runs agents as graphs.\n');
});
