// Every Markdown block marked `<!-- doc-example: run -->` (or `continues run`) runs here, as a user would
// run it — a README's quickstart, a docs site tutorial in steps — and prints the ```text block that follows
// it (issue #18, 5; issue #50, 7). Conventions: CONTRIBUTING.md, "Code in docs".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { extractMarkdownBlocks } from '../../scripts/doc-examples/extract.mjs';
import {
  missingNeeds,
  runDocBlock,
  runDocModule,
  runnableBlocks,
  runnableModules,
} from '../../scripts/doc-examples/run.mjs';
import { repositoryDocBlocks } from '../../scripts/doc-examples/sources.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const blocks = repositoryDocBlocks(root);
const runnable = runnableBlocks(blocks);
const modules = runnableModules(blocks);

/** Output as compared: trailing spaces and leading and trailing blank lines do not count. */
function normalized(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+/, '')
    .trimEnd();
}

test('the docs have runnable blocks, and each says what it prints', () => {
  expect(runnable.length).toBeGreaterThanOrEqual(4);
  expect(
    runnable.filter((block) => block.expected === undefined).map((block) => `${block.file}:${block.line}`),
  ).toEqual([]);
});

describe.concurrent('Markdown blocks run as written', () => {
  for (const module of modules) {
    const [first] = module;
    const missing = missingNeeds(module);
    const name = `${first?.file}:${module.map((block) => block.line).join(',')}`;
    if (missing.length > 0) {
      console.warn(`[doc-examples] SKIPPED ${name}: needs ${missing.join(', ')}`);
      // A block that needs a service this machine lacks (PostgreSQL, Redis) is shown skipped with what it
      // needs; CI sets both, so there every block runs.
      test.skip(`${name} (needs ${missing.join(', ')})`, () => {});
      continue;
    }
    test(name, async () => {
      const run = await runDocModule(root, module);
      expect(run.exitCode, run.stderr).toBe(0);
      module.forEach((block, index) => {
        if (!block.marker.run) return;
        expect(normalized(run.outputs[index] ?? ''), `${block.file}:${block.line} prints`).toBe(
          normalized(block.expected ?? ''),
        );
      });
    });
  }
});

test('a block that prints something else than its README says is caught', async () => {
  const file = 'examples/src/fixtures/run-readme/README.md';
  const [block] = runnableBlocks(extractMarkdownBlocks(readFileSync(`${root}${file}`, 'utf8'), file));
  expect(block?.expected).toBe('hello there\n');
  const run = await runDocBlock(root, block!);
  expect(run).toMatchObject({ exitCode: 0, stdout: 'hello world\n' });
  expect(normalized(run.stdout)).not.toBe(normalized(block?.expected ?? ''));
});

test('a walkthrough in steps runs as one program (with hidden epilogues), and each step is held to what it prints', async () => {
  const file = 'examples/src/fixtures/run-steps/README.md';
  const [module, ...rest] = runnableModules(
    extractMarkdownBlocks(readFileSync(`${root}${file}`, 'utf8'), file),
  );
  expect(rest).toEqual([]);
  expect(module?.map((block) => [block.marker.kind, block.marker.run ?? false])).toEqual([
    ['compile', false],
    ['continues', true],
    ['continues', true],
  ]);
  const run = await runDocModule(root, module!);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(module?.[1]?.epilogue?.code).toBe('total += 100;\n');
  expect(run.outputs.map(normalized)).toEqual(['', 'total 3', 'total 206\nstill 3 words']);
  expect(normalized(run.outputs[1] ?? '')).toBe(normalized(module?.[1]?.expected ?? ''));
  expect(normalized(run.outputs[2] ?? ''), 'the fixture says something else on purpose').not.toBe(
    normalized(module?.[2]?.expected ?? ''),
  );
  expect(missingNeeds(module!, {})).toEqual(['WEFT_DOCS_FIXTURE_VALUE']);
  expect(missingNeeds(module!, { WEFT_DOCS_FIXTURE_VALUE: 'x' })).toEqual([]);
});
