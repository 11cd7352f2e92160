import { describe, expect, it } from 'vitest';
import { nodeEndEvent, nodeErrorEvent } from './node-outcome-events.js';

const source = { runId: 'run-1', path: ['outer', 'n'], step: 3, node: 'n', taskId: '3:n:0', attempt: 2 };

describe('node outcome events', () => {
  it('builds node-end from the source, timed from the start', () => {
    const started = Date.now() - 5;
    const event = nodeEndEvent(source, { n: 1 }, started);
    expect(event).toEqual({
      type: 'node-end',
      runId: 'run-1',
      ts: event.ts,
      path: ['outer', 'n'],
      step: 3,
      node: 'n',
      taskId: '3:n:0',
      output: { n: 1 },
      durationMs: event.ts - started,
    });
    expect(event.durationMs).toBeGreaterThanOrEqual(5);
    expect(Object.keys(event)).not.toContain('attempt');
  });

  it('builds node-error with the attempt that failed', () => {
    const error = new Error('boom');
    const started = Date.now();
    const event = nodeErrorEvent(source, error, started);
    expect(event).toEqual({
      type: 'node-error',
      runId: 'run-1',
      ts: event.ts,
      path: ['outer', 'n'],
      step: 3,
      node: 'n',
      taskId: '3:n:0',
      error,
      attempt: 2,
      durationMs: event.ts - started,
    });
  });
});
