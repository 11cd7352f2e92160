// Sums the vitest JSON reports of every workspace package into one plain totals line:
// `N passed, N failed, N skipped`. Exits non-zero when a report is missing or a test failed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const groups = ['packages', 'apps'];
const dirs = [
  ...groups.flatMap((g) => readdirSync(join(root, g)).map((d) => join(root, g, d))),
  join(root, 'examples'),
  join(root, 'bench'),
];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const dir of dirs) {
  if (!existsSync(join(dir, 'vitest.config.ts'))) continue;
  const report = join(dir, 'test-results', 'vitest.json');
  if (!existsSync(report)) {
    missing.push(dir);
    continue;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  skipped += json.numPendingTests + json.numTodoTests;
}
for (const dir of missing) console.error(`no test report from ${dir}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
