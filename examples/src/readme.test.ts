// The README lists every runnable example with the command that runs it (issue #19, 11).
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

test('every example script has its run command in the README, and every linked file exists', () => {
  const runnable = Object.keys(scripts).filter((name) => name !== 'typecheck' && name !== 'test');
  expect(runnable.length).toBeGreaterThan(5);
  for (const name of runnable)
    if (!name.includes(':')) expect(readme, name).toContain(`pnpm --filter @weft/examples ${name}`);
  for (const [, path] of readme.matchAll(/\]\(((?:src|evals)\/[^)]+)\)/g))
    expect(() => readFileSync(new URL(`../${path}`, import.meta.url)), path).not.toThrow();
});
