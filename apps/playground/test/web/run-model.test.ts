import { describe, expect, it } from 'vitest';
import type { RunInfo, WireEvent } from '../../src/shared/wire.ts';
import { nodeStates, stepCount, stepsOf, streamedText } from '../../web/src/run-model.ts';
import { changedKeys, diffJson } from '../../web/src/state-diff/diff.ts';

let seq = 0;
// Fixtures give only the fields the code under test reads.
const e = (type: WireEvent['type'], extra: Record<string, unknown> = {}): WireEvent =>
  ({ seq: seq++, type, ts: 0, path: [], ...extra }) as unknown as WireEvent;
const node = (type: WireEvent['type'], name: string, extra: Record<string, unknown> = {}) =>
  e(type, { node: name, path: [name], ...extra });

describe('run model (what the web app derives from events)', () => {
  it('tracks node status through starts, ends, fan-out tasks, pauses and a stop', () => {
    const events = [
      e('step-start', { step: 0 }),
      node('node-start', 'research', { taskId: 'a' }),
      node('node-start', 'research', { taskId: 'b' }),
      node('node-end', 'research', { taskId: 'a' }),
    ];
    expect(nodeStates(events, undefined).get('research')).toEqual(
      expect.objectContaining({ status: 'running', finished: 1 }),
    );
    events.push(
      node('node-end', 'research', { taskId: 'b' }),
      node('node-start', 'approve'),
      node('interrupt', 'approve'),
    );
    const states = nodeStates(events, undefined);
    expect(states.get('research')).toEqual(expect.objectContaining({ status: 'done', finished: 2 }));
    expect(states.get('approve')?.status).toBe('paused');
    const stopped = nodeStates([node('node-start', 'slow')], {
      status: 'cancelled',
      interrupts: [],
    } as unknown as RunInfo);
    expect(stopped.get('slow')?.status).toBe('cancelled');
    const breakpoint = nodeStates([], {
      status: 'interrupted',
      interrupts: [{ id: 'x', value: null, path: ['report'] }],
    } as unknown as RunInfo);
    expect(breakpoint.get('report')?.status).toBe('paused');
  });

  it('groups events into supersteps with the state after each, and counts steps', () => {
    const events = [
      e('run-start', { input: { n: 0 } }),
      e('step-start', { step: 0, tasks: ['a'] }),
      node('node-start', 'a'),
      node('node-end', 'a'),
      e('step-end', { step: 0, values: { n: 1 } }),
      e('step-start', { step: 1, tasks: ['a'] }),
      e('step-start', { step: 0, path: ['sub'] }),
    ];
    const steps = stepsOf(events);
    expect(steps.map((s) => [s.step, s.status, s.values])).toEqual([
      [undefined, 'running', undefined],
      [0, 'done', { n: 1 }],
      [1, 'running', undefined],
    ]);
    expect(stepCount(events)).toBe(2);
  });

  it('groups a DAG run (no steps) by node task', () => {
    const events = [
      node('node-start', 'left', { taskId: 'l' }),
      node('node-start', 'right', { taskId: 'r' }),
      node('node-end', 'left', { taskId: 'l', output: 1 }),
      node('node-end', 'right', { taskId: 'r', output: 2 }),
    ];
    const rows = stepsOf(events);
    expect(rows.map((r) => [r.tasks[0], r.status, r.values, r.events.length])).toEqual([
      ['left', 'done', 1, 2],
      ['right', 'done', 2, 2],
    ]);
    expect(stepCount(events)).toBe(2);
  });

  it('joins streamed tokens per model call', () => {
    const tokens = [
      e('chunk', { agent: 'a', chunk: { text: 'Hel' } }),
      e('chunk', { agent: 'a', chunk: { text: 'lo' } }),
      e('model-call'),
      e('chunk', { agent: 'a', chunk: { text: 'Again' } }),
    ];
    expect(streamedText(tokens)).toEqual(['Hello', 'Again']);
  });
});

describe('state diff', () => {
  it('lists changed, added and removed paths deeply, with appends as added items', () => {
    expect(
      diffJson({ count: 1, log: ['a'], gone: true }, { count: 2, log: ['a', 'b'], user: { name: 'x' } }),
    ).toEqual([
      { path: 'count', kind: 'changed', before: 1, after: 2 },
      { path: 'log[1]', kind: 'added', after: 'b' },
      { path: 'gone', kind: 'removed', before: true },
      { path: 'user', kind: 'added', after: { name: 'x' } },
    ]);
    expect(diffJson({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('keeps only the top-level keys a fork changed', () => {
    expect(changedKeys({ count: 3, log: ['a'], target: 4 }, { count: 20, log: ['a'], target: 4 })).toEqual({
      count: 20,
    });
  });
});
