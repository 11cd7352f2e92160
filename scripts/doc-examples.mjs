// Compiles every Markdown code block and TSDoc `@example` of the repository (the same check as
// examples/src/doc-examples.test.ts) and prints the blocks that do not compile; with --run, also runs the
// blocks marked `run` (as examples/src/doc-examples-run.test.ts does) and prints those that fail or print
// something else than the ```text block after them.
//   node scripts/doc-examples.mjs                    all blocks; exits 1 when one does not compile
//   node scripts/doc-examples.mjs packages/adk       only files under a path
//   node scripts/doc-examples.mjs apps/docs --run    compile, then run the runnable modules under a path
import { fileURLToPath } from 'node:url';
import { checkDocBlocks } from './doc-examples/check.mjs';
import { missingNeeds, runDocModule, runnableModules } from './doc-examples/run.mjs';
import { repositoryDocBlocks } from './doc-examples/sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const under = process.argv.slice(2).find((argument) => !argument.startsWith('--'));
const blocks = repositoryDocBlocks(root).filter((block) => !under || block.file.startsWith(under));
const report = await checkDocBlocks({ root, blocks });
const failing = report.checked.filter((entry) => entry.diagnostics.length > 0);
for (const entry of failing)
  for (const d of entry.diagnostics) console.log(`${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`);
for (const d of report.unmapped) console.log(`${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`);
console.log(
  `${report.checked.length} compiled, ${report.skipped.length} skipped, ${failing.length} failing, ` +
    `${report.milliseconds} ms`,
);
if (failing.length > 0 || report.unmapped.length > 0) process.exitCode = 1;

if (process.argv.includes('--run')) {
  const normalized = (/** @type {string} */ text) =>
    text
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/^\n+/, '')
      .trimEnd();
  let wrong = 0;
  for (const module of runnableModules(blocks)) {
    const name = `${module[0]?.file}:${module[0]?.line}`;
    const missing = missingNeeds(module);
    if (missing.length > 0) {
      console.log(`skipped ${name}: needs ${missing.join(', ')}`);
      continue;
    }
    const run = await runDocModule(root, module);
    if (run.exitCode !== 0) {
      wrong++;
      console.log(`${name}: exit code ${run.exitCode}\n${run.stderr}`);
      continue;
    }
    module.forEach((block, index) => {
      if (!block.marker.run) return;
      const printed = normalized(run.outputs[index] ?? '');
      if (printed === normalized(block.expected ?? '')) return;
      wrong++;
      console.log(
        `${block.file}:${block.line} printed:\n${printed}\n--- the page says:\n${block.expected ?? ''}`,
      );
    });
  }
  console.log(`${runnableModules(blocks).length} modules run, ${wrong} failing`);
  if (wrong > 0) process.exitCode = 1;
}
