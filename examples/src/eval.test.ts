// The example eval set, run the way CI and a user run it: through `weft eval` (the playground's CLI). The
// forecaster passes it; the broken forecaster fails it, with the reason in the table.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const examples = new URL('..', import.meta.url).pathname;
const bin = new URL('../node_modules/@weft/eval/bin/weft-eval.mjs', import.meta.url).pathname;
const args = (agent: string) => [
  bin,
  'evals/forecaster.yaml',
  '--module',
  'src/eval-agents.ts',
  '--agent',
  agent,
];

test('the forecaster passes its eval set, and the broken forecaster fails it', async () => {
  const passed = await run(process.execPath, args('forecaster'), { cwd: examples });
  expect(passed.stdout).toContain('3/3 cases passed');
  const failed = await run(process.execPath, args('brokenForecaster'), { cwd: examples }).then(
    () => undefined,
    (error: { code: number; stdout: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stdout).toMatch(/rome-vs-oslo\s+FAIL/);
  expect(failed?.stdout).toContain('anyOrder: expected call weather not made');
}, 600_000);
