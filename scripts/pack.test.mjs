// node --test scripts/pack.test.mjs (part of `pnpm lint`): the pack step refuses a tarball that would
// lack a file its manifest names.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertTargetsPresent, publishedTargets } from './pack.mjs';

const manifest = {
  name: '@weft/playground',
  bin: { weft: './bin/weft.mjs' },
  exports: {
    '.': { types: './dist/types/index.d.ts', default: './dist/index.js' },
    './web/*': './dist/web/*',
    './package.json': './package.json',
  },
};

test('every file bin, main, types and exports name is a target; patterns are not', () => {
  assert.deepEqual(publishedTargets(manifest).sort(), [
    'bin/weft.mjs',
    'dist/index.js',
    'dist/types/index.d.ts',
    'package.json',
  ]);
  assert.deepEqual(publishedTargets({ bin: './cli.js', main: 'main.js', types: './t.d.ts' }).sort(), [
    'cli.js',
    'main.js',
    't.d.ts',
  ]);
});

test('a stage lacking a named file fails, naming the package and each missing file', () => {
  const stage = mkdtempSync(join(tmpdir(), 'weft-pack-test-'));
  mkdirSync(join(stage, 'bin'));
  writeFileSync(join(stage, 'bin', 'weft.mjs'), '');
  writeFileSync(join(stage, 'package.json'), '{}');
  // What `pnpm build` without the playground's own build left: no dist at all.
  assert.throws(
    () => assertTargetsPresent('@weft/playground', manifest, stage),
    /@weft\/playground: the tarball would lack dist\/types\/index\.d\.ts, dist\/index\.js/,
  );
  mkdirSync(join(stage, 'dist', 'types'), { recursive: true });
  writeFileSync(join(stage, 'dist', 'index.js'), '');
  writeFileSync(join(stage, 'dist', 'types', 'index.d.ts'), '');
  assert.doesNotThrow(() => assertTargetsPresent('@weft/playground', manifest, stage));
});
