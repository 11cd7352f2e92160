// Compiles every README code block and TSDoc `@example` of the repository (the same check as
// examples/src/doc-examples.test.ts) and prints the blocks that do not compile.
//   node scripts/doc-examples.mjs               all blocks; exits 1 when one does not compile
//   node scripts/doc-examples.mjs packages/adk  only files under a path
import { fileURLToPath } from 'node:url';
import { checkDocBlocks } from './doc-examples/check.mjs';
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
