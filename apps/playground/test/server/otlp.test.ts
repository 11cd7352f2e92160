// `weft dev --otlp <url>`: the CLI exports every run's spans to an OTLP/HTTP endpoint (here a loopback
// receiver), and the spans say what the playground's own event stream (its trace view) says.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type OtlpReceiver, receivedTree, startOtlpReceiver } from '@weft/otel/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WireEvent } from '../../src/shared/wire.ts';
import { presentToken, readEvents } from './harness.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let child: ChildProcess;
let receiver: OtlpReceiver;
let output = '';

const entry = `import { END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
const State = z.object({ n: z.number().default(0) });
const inner = new StateGraph(State)
  .addNode('x', (s) => ({ n: s.n + 1 }))
  .addEdge(START, 'x')
  .addEdge('x', END)
  .compile({ name: 'inner' });
export const traced = new StateGraph(State)
  .addNode('first', (s) => ({ n: s.n + 1 }))
  .addNode('sub', inner)
  .addEdge(START, 'first')
  .addEdge('first', 'sub')
  .addEdge('sub', END)
  .compile({ name: 'traced' });
`;

async function waitFor<T>(read: () => T | undefined): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (child.exitCode !== null) throw new Error(`weft dev exited:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  mkdirSync(join(root, 'test-output'), { recursive: true });
  dir = mkdtempSync(join(root, 'test-output', 'otlp-'));
  writeFileSync(join(dir, 'entry.ts'), entry);
  const args = ['dev', join(dir, 'entry.ts'), '--port', '0', '--db', join(dir, 'weft.db'), '--no-watch'];
  child = spawn(process.execPath, [join(root, 'bin/weft.mjs'), ...args, '--otlp', receiver.url], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
}, 300_000);

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

it('exports the spans of a run, and they agree with the run events the playground shows', async () => {
  const link = await waitFor(() => /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(output)?.[1]);
  const url = new URL(link).origin;
  const token = new URL(link).searchParams.get('token') ?? '';
  presentToken(url, token);
  expect(output).toContain(`exporting traces to ${receiver.url}`);
  const post = async (path: string, body: unknown) =>
    (
      await fetch(`${url}${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      })
    ).json() as Promise<{ id: string }>;
  const thread = await post('/api/threads', { graphId: 'traced' });
  const run = await post(`/api/threads/${thread.id}/runs`, { input: { n: 0 } });
  const events: WireEvent[] = await readEvents(`${url}/api/runs/${run.id}/events`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM'); // flushes the batched spans
  expect(await exited).toBe(0);
  await receiver.until((spans) => spans.some((s) => s.name === 'run traced'));

  const spans = receiver.spans;
  expect(receivedTree(spans)).toEqual([
    'run traced',
    '  step 0',
    '    node first',
    '  step 1',
    '    node sub',
    '      step 0',
    '        node x',
  ]);
  const shown = events
    .filter((e) => e.type === 'node-end')
    .map((e) => `${(e.path as string[]).join('/')}@${e.step}`)
    .sort();
  const traced = spans
    .filter((s) => s.name.startsWith('node '))
    .map((s) => `${(s.attributes['weft.node.path'] as string[]).join('/')}@${s.attributes['weft.step']}`)
    .sort();
  expect(traced).toEqual(shown);
  const runSpan = spans.find((s) => s.name === 'run traced');
  expect(runSpan?.attributes).toMatchObject({
    'weft.run.id': run.id,
    'weft.thread.id': thread.id,
    'weft.run.status': 'done',
  });
  expect(runSpan?.attributes['weft.run.input']).toBeUndefined();
});

it('rejects an --otlp that is not an http(s) URL', async () => {
  const { parseCommand } = await import('../../src/cli/parse-args.ts');
  expect(parseCommand(['dev', '--otlp', 'http://localhost:4318/v1/traces'])).toMatchObject({
    otlp: 'http://localhost:4318/v1/traces',
  });
  expect(() => parseCommand(['dev', '--otlp', 'localhost:4318'])).toThrow(
    '--otlp must be an http(s) URL such as http://localhost:4318/v1/traces, got "localhost:4318"',
  );
  expect(parseCommand(['dev'])).toMatchObject({ otlp: undefined });
});
