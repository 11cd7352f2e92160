// Keeps the README honest beyond its quickstart (which examples/src/doc-examples-run.test.ts runs): the OTLP
// block runs as written (in a child process, importing the package by name), the worker block is what the test wires.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

async function blocks(): Promise<string[]> {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** Runs `code` as a module inside this package (so `@weft/otel` resolves to its source); returns stdout. */
async function runModule(name: string, code: string): Promise<string> {
  const dir = `${packageDir}test-results/readme`;
  await mkdir(dir, { recursive: true });
  const file = `${dir}/${name}.ts`;
  await writeFile(file, code);
  const { stdout } = await run(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', file], {
    cwd: packageDir,
  });
  return stdout;
}

test('the OTLP backend example runs as written', async () => {
  const otlp = (await blocks()).find((block) => block.includes('BatchSpanProcessor')) ?? '';
  const code = `import { otelTracing } from '@weft/otel';\n${otlp}\nawait provider.shutdown();\nconsole.log(tracing.enabled);\n`;
  expect((await runModule('otlp', code)).trim()).toBe('true');
});

test('the worker example is what the cross-process test wires', async () => {
  const worker = (await blocks()).find((block) => block.includes('createWorker')) ?? '';
  const scenario = [
    await readFile(new URL('./worker-trace.test.ts', import.meta.url), 'utf8'),
    await readFile(new URL('./fixtures/traced-worker.ts', import.meta.url), 'utf8'),
  ].join('\n');
  for (const wiring of [
    'carrier: (run) => tracing.carrier(run)',
    'callbacks: (job) => tracing.callbacks(job)',
  ]) {
    expect(worker).toContain(wiring);
    expect(scenario).toContain(wiring);
  }
});
