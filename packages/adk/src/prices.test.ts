// The `./prices` entry: its surface as a snapshot, and no runtime import (it must load in a browser).
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import * as api from './prices.js';

test('exports exactly the documented names', () => {
  expect(Object.keys(api).sort()).toMatchSnapshot();
});

test('imports nothing at run time but its own two modules', () => {
  for (const file of ['./model/price-lookup.ts', './model/usage-cost.ts']) {
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    const runtime = [...source.matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)].map((m) => m[1]);
    expect(
      runtime.filter((from) => from !== './price-lookup.js'),
      file,
    ).toEqual([]);
  }
});
