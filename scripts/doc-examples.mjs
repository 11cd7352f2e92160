// Compiles every README code block and TSDoc `@example` of the repository (the same check as
// examples/src/doc-examples.test.ts) and prints the blocks that do not compile.
//   node scripts/doc-examples.mjs                        all blocks, known failures marked
//   node scripts/doc-examples.mjs packages/adk           only files under a path
//   node scripts/doc-examples.mjs --write-known-failing  rewrite scripts/doc-examples/known-failing.txt
import { fileURLToPath } from 'node:url';
import { checkDocBlocks } from './doc-examples/check.mjs';
import { knownFailing, writeKnownFailing } from './doc-examples/known-failing.mjs';
import { repositoryDocBlocks } from './doc-examples/sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const write = process.argv.includes('--write-known-failing');
const under = process.argv.slice(2).find((argument) => !argument.startsWith('--'));
const blocks = repositoryDocBlocks(root).filter((block) => !under || block.file.startsWith(under));
const report = await checkDocBlocks({ root, blocks });
const known = knownFailing(root);
const failing = report.checked.filter((entry) => entry.diagnostics.length > 0);
for (const entry of failing)
  for (const d of entry.diagnostics)
    console.log(
      `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}${known.has(entry.key) ? '  (known)' : ''}`,
    );
for (const d of report.unmapped) console.log(`${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`);
const unexpected = failing.filter((entry) => !known.has(entry.key));
console.log(
  `${report.checked.length} compiled, ${report.skipped.length} skipped, ${failing.length} failing ` +
    `(${unexpected.length} not known), ${report.milliseconds} ms`,
);
if (write) {
  if (under) throw new Error('--write-known-failing needs the whole repository (no path filter)');
  writeKnownFailing(root, failing);
} else if (unexpected.length > 0 || report.unmapped.length > 0) process.exitCode = 1;
