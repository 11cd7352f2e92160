// Sums the vitest JSON reports of every workspace package into one plain totals line:
// `N passed, N failed, N skipped`. Exits non-zero when a report is missing or anything failed.
// A suite that failed without a failing test (an error in `beforeAll`, an import that throws) counts as
// one failure: its tests are reported as skipped, and skipped alone would read as green.
// `--clear` deletes every report first, so a package whose run dies before writing one is reported
// missing instead of being read from an earlier run.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const groups = ['packages', 'apps'];
const dirs = [
  ...groups.flatMap((g) => readdirSync(join(root, g)).map((d) => join(root, g, d))),
  join(root, 'examples'),
  join(root, 'bench'),
].filter((dir) => existsSync(join(dir, 'vitest.config.ts')));

if (process.argv.includes('--clear')) {
  for (const dir of dirs) rmSync(join(dir, 'test-results', 'vitest.json'), { force: true });
  process.exit(0);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const failedSuites = [];
for (const dir of dirs) {
  const report = join(dir, 'test-results', 'vitest.json');
  if (!existsSync(report)) {
    missing.push(dir);
    continue;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  skipped += json.numPendingTests + json.numTodoTests;
  for (const suite of json.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed').length;
    if (suite.status === 'failed' && failedTests === 0) {
      failed += 1;
      failedSuites.push(`${suite.name}: ${(suite.message ?? '').split('\n')[0]}`);
    }
  }
}
for (const dir of missing) console.error(`no test report from ${dir}`);
for (const suite of failedSuites) console.error(`suite failed outside its tests: ${suite}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
