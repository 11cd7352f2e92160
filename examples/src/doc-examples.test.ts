// Every ```ts block of every Markdown file and every TSDoc `@example` in packages/*/src is compiled here, in
// one tsc program, read from the files themselves (issue #18, 5). Conventions: CONTRIBUTING.md, "Code in docs".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { type CheckReport, checkDocBlocks } from '../../scripts/doc-examples/check.mjs';
import { extractMarkdownBlocks } from '../../scripts/doc-examples/extract.mjs';
import { repositoryDocBlocks } from '../../scripts/doc-examples/sources.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = 'examples/src/fixtures/broken-readme/README.md';
let report: CheckReport;
// One tsc run over the whole workspace's sources: about 7 s of CPU. In CI it shares two cores with every
// package's tests and the browser tests, and once took longer than the default two-minute hook timeout (it
// took 57 s here beside 12 busy loops). The timeout only catches a hung compiler, so it is generous.
const compileTimeout = 15 * 60_000;

beforeAll(async () => {
  const blocks = [
    ...repositoryDocBlocks(root),
    ...extractMarkdownBlocks(readFileSync(`${root}${fixture}`, 'utf8'), fixture),
  ];
  report = await checkDocBlocks({ root, blocks });
  const repository = report.checked.filter((entry) => entry.block.file !== fixture);
  console.log(
    `doc examples: ${repository.length} compiled (${repository.filter((entry) => entry.block.source === 'readme').length} README, ` +
      `${repository.filter((entry) => entry.block.source === 'tsdoc').length} @example), ` +
      `${report.skipped.filter((block) => block.file !== fixture).length} skipped, ` +
      `${repository.filter((entry) => entry.diagnostics.length > 0).length} failing, ` +
      `${report.milliseconds} ms`,
  );
}, compileTimeout);

test('a broken README snippet is reported with its file, line and TypeScript error', () => {
  const broken = report.checked.filter((entry) => entry.block.file === fixture);
  expect(broken.map((entry) => entry.block.line)).toEqual([6, 21, 26]);
  expect(broken[0]?.diagnostics.map(({ file, line, code }) => `${file}:${line} ${code}`)).toEqual([
    `${fixture}:9 TS2322`,
  ]);
  expect(broken[0]?.diagnostics[0]?.message).toMatch(/Type 'number' is not assignable to type 'string'/);
  expect(
    [...(broken[1]?.diagnostics ?? []), ...(broken[2]?.diagnostics ?? [])],
    'a prelude and a continued block compile as one module',
  ).toEqual([]);
  expect(
    report.skipped.filter((block) => block.file === fixture).map((block) => block.marker.reason),
  ).toEqual(['shows that a skipped block is counted, not compiled']);
});

test('the checker itself compiled cleanly (no error outside the generated modules)', () => {
  expect(report.unmapped).toEqual([]);
});

test('every README block and @example compiles', () => {
  const failing = report.checked.filter(
    (entry) => entry.block.file !== fixture && entry.diagnostics.length > 0,
  );
  const unexpected = failing.flatMap((entry) =>
    entry.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`),
  );
  expect(
    unexpected,
    'these doc blocks do not compile (fix them; see CONTRIBUTING.md, "Code in docs")',
  ).toEqual([]);
});
