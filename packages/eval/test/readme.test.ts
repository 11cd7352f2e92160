// The README's code blocks, taken from the file itself: the quickstart runs as written (its fixture
// import is resolved from the package root), the cassette and matcher blocks run against a real agent.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { MemorySessionService, Runner } from '@weft/adk';
import { expect, test, vi } from 'vitest';
import { evalMatchers } from '../src/vitest.js';
import { calculator } from './fixtures/calculator.js';

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const generated = new URL('../test-results/readme/', import.meta.url);

async function runBlock(name: string, code: string): Promise<void> {
  await mkdir(generated, { recursive: true });
  const file = new URL(`${name}.ts`, generated);
  await writeFile(file, code.replaceAll("'./test/fixtures/", "'../../test/fixtures/"));
  await import(file.href);
}

test('the quickstart runs as written and prints a passing table', async () => {
  const quickstart = /## Quickstart\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  expect(quickstart.trim().split('\n').length).toBeLessThanOrEqual(20);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await runBlock('quickstart', quickstart);
  expect(log.mock.calls.flat().join('\n')).toMatch(/adds\s+PASS\s+2\/2/);
  log.mockRestore();
});

test('the cassette block builds a replaying model', async () => {
  const block = blocks.find((b) => b.includes('cassetteModel({')) ?? '';
  await expect(runBlock('cassette', block)).rejects.toThrow(/does not exist; record it first/);
});

test('the matcher block passes against the calculator', async () => {
  const block = blocks.find((b) => b.includes('expect.extend(evalMatchers)')) ?? '';
  expect(block).toContain("toHaveCalledTools([{ name: 'add', args: { a: 2, b: 3 } }])");
  const runner = new Runner({ agent: calculator, sessionService: new MemorySessionService() });
  const body = block.replace(/^import .*\n/gm, '');
  const run = new Function(
    'expect',
    'evalMatchers',
    'captureTurn',
    'runner',
    `return (async () => {${body}})();`,
  );
  const { captureTurn } = await import('../src/index.js');
  await run(expect, evalMatchers, captureTurn, runner);
  expect.extend(evalMatchers);
  const turn = await captureTurn(runner.run({ userId: 'u', sessionId: 's2', message: 'What is 4 times 5?' }));
  expect(() => expect(turn).toHaveCalledTools(['add'])).toThrow(/expected add, got multiply/);
  expect(() => expect(turn).toHaveResponded({ contains: '21' })).toThrow(/does not contain "21"/);
});
