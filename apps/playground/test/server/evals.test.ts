import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp } from '../../src/server/define-app.ts';
import { buildAssistantAgent } from '../../src/server/demo/assistant-agent.ts';
import { startServer } from '../../src/server/server.ts';
import type { EvalRunInfo } from '../../src/shared/eval-wire.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function finished(runId: string): Promise<EvalRunInfo> {
  for (;;) {
    const { body } = await h.request('GET', `/api/evals/runs/${runId}`);
    if (body.status !== 'running') return body as EvalRunInfo;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the Evals API', () => {
  it('lists the demo eval set with its cases and the agents it can run against', async () => {
    const { status, body } = await h.request('GET', '/api/evals');
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ id: 'assistant', name: 'assistant' });
    expect(body[0].cases.map((c: { id: string }) => c.id)).toEqual([
      'weather-lyon',
      'booking-approved',
      'booking-rejected',
      'small-talk',
    ]);
    expect(body[0].agents).toEqual(['assistant', 'supervisor', 'plan-execute', 'host', 'barista']);
  });

  it('runs the set against the assistant (all pass) and against another agent (fails), and lists both', async () => {
    const started = await h.request('POST', '/api/evals/assistant/runs', { agentId: 'assistant' });
    expect(started.status).toBe(202);
    expect(started.body.status).toBe('running');
    const good = await finished(started.body.id);
    expect(good.status).toBe('done');
    expect(good.report?.totals).toMatchObject({ cases: 4, passed: 4 });
    const approved = good.report?.cases.find((c) => c.caseId === 'booking-approved')?.runs[0];
    expect(approved?.turns.map((t) => t.capture.toolCalls.map((call) => call.name))).toEqual([
      ['book_table'],
      [],
    ]);

    const other = await finished(
      (await h.request('POST', '/api/evals/assistant/runs', { agentId: 'host' })).body.id,
    );
    expect(other.status).toBe('done');
    expect(other.report?.totals.passed).toBeLessThan(4);

    const list = await h.request('GET', '/api/evals/assistant/runs');
    expect(list.body.map((r: EvalRunInfo) => r.agentId)).toEqual(['host', 'assistant']);
    expect(list.body[0].report.cases).toEqual([]);
  });

  it('names what is wrong in a bad request', async () => {
    const unknownAgent = await h.request('POST', '/api/evals/assistant/runs', { agentId: 'nobody' });
    expect(unknownAgent.status).toBe(400);
    expect(unknownAgent.body.error.message).toContain(
      'no agent "nobody" (known: assistant, supervisor, plan-execute, host, barista)',
    );
    const badRepeats = await h.request('POST', '/api/evals/assistant/runs', {
      agentId: 'assistant',
      repeats: 0,
    });
    expect(badRepeats.status).toBe(400);
    expect(badRepeats.body.error.message).toContain('repeats');
    expect((await h.request('POST', '/api/evals/nope/runs', { agentId: 'assistant' })).status).toBe(404);
    expect((await h.request('GET', '/api/evals/runs/nope')).status).toBe(404);
  });
});

it('reads eval set files of an app, and reports a broken one instead of failing the listing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'weft-evals-'));
  const good = join(dir, 'good.yaml');
  await writeFile(good, 'name: from-file\ncases:\n  - id: hi\n    turns:\n      - user: hi\n');
  const server = await startServer({
    app: defineApp({
      agents: [buildAssistantAgent({ chunkDelayMs: 0 })],
      evals: { good, broken: join(dir, 'missing.yaml') },
    }),
    port: 0,
    database: ':memory:',
    token: false,
  });
  try {
    const body = (await (await fetch(`${server.url}/api/evals`)).json()) as Array<{
      id: string;
      name: string;
      problem?: string;
    }>;
    expect(body.find((s) => s.id === 'good')?.name).toBe('from-file');
    expect(body.find((s) => s.id === 'broken')?.problem).toMatch(/missing.yaml: cannot read the eval set/);
  } finally {
    await server.close();
  }
});
