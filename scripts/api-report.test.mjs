// Run by `pnpm lint` (node --test): the API report sees types, not only run-time names. A fixture package
// in a temporary folder (a hand-written declaration file, as `tsc` emits one) gets its report written;
// then a change that `Object.keys` of the entry cannot see — a field of an exported interface — must show
// as drift, and so must a new exported type.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { apiReports } from './lib/api-reports.mjs';

const dir = mkdtempSync(join(tmpdir(), 'weft-api-fixture-'));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'dist'));
writeFileSync(
  join(dir, 'package.json'),
  JSON.stringify({
    name: '@fixture/api',
    version: '0.0.0',
    type: 'module',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
  }),
);
const declarations = (field) => `/** Options of {@link greet}. */
export interface GreetOptions {
  /** Who is greeted. */
  readonly name: string;
${field}}
/** Says hello. */
export declare function greet(options: GreetOptions): string;
`;
writeFileSync(join(dir, 'dist/index.d.ts'), declarations(''));
const report = join(dir, 'api/index.api.md');

test('writes one report per entry, with types and signatures', () => {
  const written = apiReports({ dirs: [dir], update: true, root: dir });
  assert.deepEqual(written, { count: 1, drifted: [], failed: [] });
  const text = readFileSync(report, 'utf8');
  assert.match(text, /export interface GreetOptions \{\n\s+readonly name: string;\n\}/);
  assert.match(text, /export function greet\(options: GreetOptions\): string;/);
  assert.deepEqual(apiReports({ dirs: [dir], update: false, root: dir }).drifted, []);
});

test('a changed interface field is drift, though the run-time names did not change', () => {
  writeFileSync(
    join(dir, 'dist/index.d.ts'),
    declarations('  /** How loud. */\n  readonly volume?: number;\n'),
  );
  const checked = apiReports({ dirs: [dir], update: false, root: dir });
  assert.deepEqual(checked.failed, []);
  assert.deepEqual(checked.drifted, ['@fixture/api (api/index.api.md)']);
  // The committed report is left as it was until an update.
  assert.doesNotMatch(readFileSync(report, 'utf8'), /volume/);
  apiReports({ dirs: [dir], update: true, root: dir });
  assert.match(readFileSync(report, 'utf8'), /readonly volume\?: number;/);
});

test('a new exported type is drift', () => {
  writeFileSync(
    join(dir, 'dist/index.d.ts'),
    `${declarations('  /** How loud. */\n  readonly volume?: number;\n')}/** A greeting. */\nexport type Greeting = string;\n`,
  );
  assert.equal(apiReports({ dirs: [dir], update: false, root: dir }).drifted.length, 1);
});

test('an entry whose declarations are not built is a failure, not a pass', () => {
  rmSync(join(dir, 'dist/index.d.ts'));
  const checked = apiReports({ dirs: [dir], update: false, root: dir });
  assert.equal(checked.failed.length, 1);
  assert.match(checked.failed[0], /is not built/);
});
