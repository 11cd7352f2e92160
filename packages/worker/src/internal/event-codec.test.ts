import type { RunEvent } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import {
  BATCH_KIND,
  decodeEntry,
  encodeBatch,
  encodeEvent,
  parsePosition,
  SETTLED_KIND,
} from './event-codec.js';

const base = { runId: 'r1', ts: 1, path: [] } as const;
const batch = (...events: RunEvent[]) => ['k', BATCH_KIND, 'd', encodeBatch(events.map(encodeEvent))];

describe('event codec', () => {
  it('round-trips a batch of events with tagged values, each with its own id', () => {
    const failed: RunEvent = {
      ...base,
      type: 'run-error',
      graph: 'g',
      error: new TypeError('bad'),
      durationMs: 3,
    };
    const started: RunEvent = { ...base, type: 'run-start', graph: 'g', input: { at: new Date(0) } };
    const entries = decodeEntry('7-0', batch(started, failed));
    expect(entries.map((entry) => entry.id)).toEqual(['7-0/0', '7-0/1']);
    const [first, second] = entries.map((entry) => (entry.kind === 'event' ? entry.event : undefined));
    expect(first?.type === 'run-start' && first.input).toEqual({ at: new Date(0) });
    expect(second?.type === 'run-error' && second.error.message).toBe('bad');
  });

  it('replaces a payload it cannot serialize instead of losing the event', () => {
    class Handle {
      constructor(readonly fd: number) {}
    }
    const event: RunEvent = {
      ...base,
      type: 'node-end',
      step: 2,
      node: 'n',
      taskId: 't',
      output: new Handle(3),
      durationMs: 1,
    };
    const [entry] = decodeEntry('1-0', batch(event));
    const decoded = entry?.kind === 'event' ? entry.event : undefined;
    expect(decoded).toMatchObject({ type: 'node-end', step: 2, node: 'n' });
    expect(decoded?.type === 'node-end' && String(decoded.output)).toMatch(/^\[unserializable: /);
  });

  it('reads settled markers and ignores foreign entries', () => {
    expect(decodeEntry('2-0', ['k', SETTLED_KIND, 'd', '{"runId":"r1","status":"done"}'])).toEqual([
      { id: '2-0', kind: 'settled', marker: { runId: 'r1', status: 'done' } },
    ]);
    expect(decodeEntry('3-0', ['other', 'x'])).toEqual([]);
  });

  it('parses positions inside and after batches', () => {
    expect(parsePosition('5-1/3')).toEqual({ streamId: '5-1', after: 3 });
    expect(parsePosition('5-1')).toEqual({ streamId: '5-1', after: undefined });
    expect(parsePosition('$')).toEqual({ streamId: '$', after: undefined });
  });
});
