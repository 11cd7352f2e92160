import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('bad requests get a 4xx JSON error naming the field, and the server stays up', () => {
  it('rejects a run input that fails the graph input schema, naming each field', async () => {
    const thread = await h.thread('counter-loop');
    const answer = await h.request('POST', `/api/threads/${thread}/runs`, {
      input: { target: 0, delayMs: 'slow', extra: 1 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    const paths = answer.body.error.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['input.target', 'input.delayMs']));
    expect(answer.body.error.message).toContain('input.target');
    expect((await h.request('GET', `/api/threads/${thread}/runs`)).body).toEqual([]);
  });

  it('rejects an agent message that is empty', async () => {
    const thread = await h.thread('assistant');
    const answer = await h.request('POST', `/api/threads/${thread}/runs`, { input: { message: '' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toBe('input.message');
  });

  it('rejects unparsable JSON and wrong body fields', async () => {
    const broken = await h.request('POST', '/api/threads', '{"graphId": ');
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('INVALID_JSON');
    const missing = await h.request('POST', '/api/threads', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues[0].path).toBe('graphId');
    const wrongType = await h.request('POST', '/api/threads', { graphId: 42 });
    expect(wrongType.body.error.issues[0].path).toBe('graphId');
  });

  it('answers 404 for unknown graphs, threads, runs and routes', async () => {
    expect((await h.request('POST', '/api/threads', { graphId: 'nope' })).status).toBe(404);
    expect((await h.request('GET', '/api/threads/nope/state')).status).toBe(404);
    expect((await h.request('POST', '/api/threads/nope/runs', { input: {} })).status).toBe(404);
    expect((await h.request('GET', '/api/runs/nope/events')).status).toBe(404);
    expect((await h.request('POST', '/api/runs/nope/stop')).status).toBe(404);
    const route = await h.request('GET', '/api/nothing-here');
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe('NOT_FOUND');
  });

  it('rejects a second run on a busy thread, resuming what is not paused, and bad breakpoints', async () => {
    const thread = await h.thread('counter-loop');
    const run = await h.start(thread, { target: 20, delayMs: 100 });
    const busy = await h.request('POST', `/api/threads/${thread}/runs`, { input: {} });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('THREAD_BUSY');
    await h.request('POST', `/api/runs/${run.id}/stop`);
    const notPaused = await h.request('POST', `/api/threads/${thread}/resume`, { value: true });
    expect(notPaused.status).toBe(409);
    const noValue = await h.request('POST', `/api/threads/${thread}/resume`, {});
    expect(noValue.status).toBe(400);
    expect(noValue.body.error.issues[0].path).toBe('value');
    const breakpoints = await h.request('PUT', `/api/threads/${thread}/breakpoints`, {
      before: ['increment', 'ghost'],
    });
    expect(breakpoints.status).toBe(400);
    expect(breakpoints.body.error.issues).toEqual([expect.objectContaining({ path: 'before.1' })]);
    const badFork = await h.request('POST', `/api/threads/${thread}/fork`, { checkpointId: 'missing' });
    expect(badFork.status).toBe(404);
    expect(badFork.body.error.message).toContain('checkpointId');
  });

  it('rejects a resume value for an interrupt id that is not pending', async () => {
    const thread = await h.thread('refund-approval');
    await h.events((await h.start(thread, {})).id);
    const wrong = await h.request('POST', `/api/threads/${thread}/resume`, {
      value: true,
      interruptId: 'nope',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.issues[0].path).toBe('interruptId');
    expect((await h.request('GET', '/api/health')).body).toEqual({ ok: true });
  });
});
