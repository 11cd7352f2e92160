// Type-aware API reports, one per public entry of every published package (issue #42, ADR 033).
//
// For each `exports` entry of each package built by tsconfig.build.json, API Extractor reads the built
// declaration file and writes `<package>/api/<entry>.api.md`: every exported name with its signature, values
// and types alike. The reports are committed, so a change to a public surface is a reviewed diff.
//
//   node scripts/api-report.mjs           check: fail (exit 1) naming each entry whose report drifted
//   node scripts/api-report.mjs --update  rewrite the committed reports
//
// Both need the declarations built first (`tsc -b tsconfig.build.json`; `pnpm api:check` and `pnpm api:update`
// do that). One run reads the 28 entries (as of ADR 033) in about 30 seconds.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { apiReports } from './lib/api-reports.mjs';

const root = new URL('..', import.meta.url).pathname;
const update = process.argv.includes('--update');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

/** Every package directory that tsconfig.build.json builds (or those named on the command line). */
function packageDirs() {
  const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  const dirs = build.references.map((ref) => dirname(join(root, ref.path)));
  if (only.length === 0) return dirs;
  return dirs.filter((dir) =>
    only.includes(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name),
  );
}

const { count, drifted, failed } = apiReports({ dirs: packageDirs(), update, root });

if (failed.length > 0) {
  console.error(`API reports could not be made:\n  ${failed.join('\n  ')}`);
  process.exit(1);
}
if (drifted.length > 0) {
  console.error(
    `The public API changed in ${drifted.length} entr${drifted.length === 1 ? 'y' : 'ies'}:\n  ${drifted.join('\n  ')}\n` +
      'Review the change, then run `pnpm api:update` and commit the updated reports.',
  );
  process.exit(1);
}
console.log(`${count} API reports ${update ? 'written' : 'match the committed ones'}.`);
