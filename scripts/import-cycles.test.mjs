// Run by `pnpm lint` (node --test): the cycle check must catch a cycle made only of a type import.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importCycles } from './import-cycles.mjs';

const cwd = new URL('fixtures/import-cycle/', import.meta.url).pathname;

test('finds a cycle closed by a type-only import', () => {
  assert.deepEqual(importCycles(['index.ts'], cwd), [['loop.ts', 'step.ts']]);
});

test('finds none where no cycle is reachable', () => {
  assert.deepEqual(importCycles(['leaf.ts'], cwd), []);
});

test('rejects no entries', () => {
  assert.throws(() => importCycles([], cwd), /non-empty array/);
});
