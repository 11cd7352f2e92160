import { describe, expect, it } from 'vitest';
import { AdkError } from '../errors/adk-error.js';
import type { AgentEvent } from '../event/agent-event.js';
import {
  assertCommittableEvent,
  assertGetSessionOptions,
  assertSessionNames,
  isAtLeastAsNew,
  stateScopeOf,
  toCommittedEvent,
  toStateWrites,
} from './session-commit.js';

const base: AgentEvent = { id: 'e1', invocationId: 'i1', author: 'agent', timestamp: 1, actions: {} };

function codeOf(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return AdkError.isInstance(error) ? error.code : error;
  }
  return undefined;
}

describe('session commit rules', () => {
  it('maps key prefixes to scopes', () => {
    expect(['app:x', 'user:x', 'temp:x', 'x', 'App:x', 'apps:x'].map(stateScopeOf)).toEqual([
      'app',
      'user',
      undefined,
      'session',
      'session',
      'session',
    ]);
  });

  it('turns a delta into writes sorted by scope then key, without temp keys, undefined as null', () => {
    expect(toStateWrites({ b: 1, 'user:z': undefined, 'temp:t': 1, a: null, 'app:y': 0 })).toEqual([
      { scope: 'app', key: 'app:y', value: 0 },
      { scope: 'user', key: 'user:z', value: null },
      { scope: 'session', key: 'a', value: null },
      { scope: 'session', key: 'b', value: 1 },
    ]);
    expect(toStateWrites(undefined)).toEqual([]);
  });

  it('orders writes by timestamp, then id', () => {
    expect(isAtLeastAsNew({ timestamp: 2, id: 'a' }, { timestamp: 1, id: 'z' })).toBe(true);
    expect(isAtLeastAsNew({ timestamp: 1, id: 'z' }, { timestamp: 2, id: 'a' })).toBe(false);
    expect(isAtLeastAsNew({ timestamp: 2, id: 'b' }, { timestamp: 2, id: 'a' })).toBe(true);
    expect(isAtLeastAsNew({ timestamp: 2, id: 'a' }, { timestamp: 2, id: 'b' })).toBe(false);
    expect(isAtLeastAsNew({ timestamp: 2, id: 'a' }, { timestamp: 2, id: 'a' })).toBe(true);
    expect(isAtLeastAsNew({ timestamp: 2, id: 'a' }, { timestamp: 2, id: '' })).toBe(true);
  });

  it('builds the committed event without changing the given one', () => {
    const given: AgentEvent = {
      ...base,
      actions: { stateDelta: { 'temp:x': 1, a: undefined, b: 2 }, exit: true },
    };
    const committed = toCommittedEvent(given);
    expect(committed.actions).toEqual({ stateDelta: { a: null, b: 2 }, exit: true });
    expect(Object.keys(committed.actions.stateDelta ?? {})).toEqual(['a', 'b']);
    expect(given.actions.stateDelta).toEqual({ 'temp:x': 1, a: undefined, b: 2 });
    expect(toCommittedEvent(base)).not.toBe(base);
    expect(toCommittedEvent(base)).toEqual(base);
  });

  it('rejects empty names, bad events and bad get options with INVALID_ARGUMENT', () => {
    expect(codeOf(() => assertSessionNames({ appName: 'a', userId: 'u', sessionId: 's' }))).toBeUndefined();
    expect(codeOf(() => assertSessionNames({ appName: 'a', userId: '' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => assertCommittableEvent(base))).toBeUndefined();
    expect(codeOf(() => assertCommittableEvent({ ...base, id: '' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => assertCommittableEvent({ ...base, timestamp: Infinity }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => assertGetSessionOptions({ recentEvents: 1.5 }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => assertGetSessionOptions({ afterTimestamp: Number.NaN }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => assertGetSessionOptions({ recentEvents: 0, afterTimestamp: 5 }))).toBeUndefined();
  });
});
