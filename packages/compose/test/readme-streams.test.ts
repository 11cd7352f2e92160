// Keeps the README's "Streams between nodes" example honest: `readme-streams.example.ts` is that block
// verbatim, and it runs and prints what the block's comments say.
import { readFile } from 'node:fs/promises';
import { expect, test, vi } from 'vitest';

/** The first `ts` block after `heading` in the README. */
async function blockAfter(heading: string): Promise<string> {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  return /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

test('the README block is the example file, verbatim', async () => {
  const example = await readFile(new URL('./readme-streams.example.ts', import.meta.url), 'utf8');
  expect(await blockAfter('## Streams between nodes')).toBe(example);
});

test('the streams example runs: chunks interleave, invoke joins', async () => {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  try {
    await import('./readme-streams.example.js');
  } finally {
    log.mockRestore();
  }
  expect(lines).toEqual([
    'model streams ',
    'model flow ',
    'parser STREAMS ',
    'model through ',
    'parser FLOW ',
    'parser THROUGH ',
    'A B ',
  ]);
});
