import { expect, it } from 'vitest';
import type { RunEvent } from '../events/run-event.js';
import type { RunObserver } from '../pregel/run-context.js';
import { nestedScope, scopedObserver } from './nested-scope.js';

it('builds a scope from the parent scope, the enclosing task and the key', () => {
  expect(nestedScope(undefined, '3:tools:0', 'call_1')).toBe('/3:tools:0#call_1');
  expect(nestedScope('/3:tools:0#call_1', '1:sub:0', undefined)).toBe('/3:tools:0#call_1/1:sub:0');
});

it('leaves an observer without an event listener as it is (no event is built)', () => {
  const observer: RunObserver = { custom: () => {} };
  expect(scopedObserver(observer, '/a')).toBe(observer);
});

it('stamps events with the scope, keeping the scope of a run nested deeper', () => {
  const seen: RunEvent[] = [];
  const outer = scopedObserver({ event: (e) => seen.push(e) }, '/a');
  const inner = scopedObserver(outer, '/a/b');
  const event = {
    type: 'step-end',
    runId: 'r',
    ts: 0,
    path: ['x'],
    step: 0,
    durationMs: 0,
    values: {},
  } as const;
  outer.event?.(event);
  inner.event?.(event);
  expect(seen.map((e) => e.scope)).toEqual(['/a', '/a/b']);
});
