// Every README block marked `<!-- doc-example: run -->` runs here, as a user would run it, and prints the
// ```text block that follows it (issue #18, 5). Conventions: CONTRIBUTING.md, "Code in docs".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { extractMarkdownBlocks } from '../../scripts/doc-examples/extract.mjs';
import { runDocBlock, runnableBlocks } from '../../scripts/doc-examples/run.mjs';
import { repositoryDocBlocks } from '../../scripts/doc-examples/sources.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const runnable = runnableBlocks(repositoryDocBlocks(root));

/** Output as compared: trailing spaces and trailing blank lines do not count. */
function normalized(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}

test('the READMEs have runnable blocks, and each says what it prints', () => {
  expect(runnable.length).toBeGreaterThanOrEqual(4);
  expect(
    runnable.filter((block) => block.expected === undefined).map((block) => `${block.file}:${block.line}`),
  ).toEqual([]);
});

describe.concurrent('README blocks run as written', () => {
  for (const block of runnable)
    test(`${block.file}:${block.line}`, async () => {
      const run = await runDocBlock(root, block);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(normalized(run.stdout)).toBe(normalized(block.expected ?? ''));
    });
});

test('a block that prints something else than its README says is caught', async () => {
  const file = 'examples/src/fixtures/run-readme/README.md';
  const [block] = runnableBlocks(extractMarkdownBlocks(readFileSync(`${root}${file}`, 'utf8'), file));
  expect(block?.expected).toBe('hello there\n');
  const run = await runDocBlock(root, block!);
  expect(run).toMatchObject({ exitCode: 0, stdout: 'hello world\n' });
  expect(normalized(run.stdout)).not.toBe(normalized(block?.expected ?? ''));
});
