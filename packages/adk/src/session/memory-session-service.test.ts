import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../event/agent-event.js';
import { describeSessionServiceConformance } from '../testing/session-service-conformance.js';
import { MemorySessionService } from './memory-session-service.js';

describeSessionServiceConformance('MemorySessionService', async () => ({
  service: new MemorySessionService(),
}));

function event(id: string, timestamp: number, stateDelta: Record<string, unknown>): AgentEvent {
  return { id, invocationId: 'i1', author: 'agent', timestamp, actions: { stateDelta } };
}

describe('MemorySessionService', () => {
  it('runs a delete after the appends queued before it, so they cannot resurrect the session', async () => {
    const service = new MemorySessionService();
    const key = await service.create({ appName: 'app', userId: 'u1', sessionId: 's1' });
    const appends = [1, 2, 3].map((index) =>
      service.appendEvent(key, event(`e${index}`, Date.now(), { n: index })),
    );
    const deleted = service.delete(key);
    const late = service.appendEvent(key, event('e4', Date.now(), { n: 4 }));
    await Promise.all([...appends, deleted]);
    await expect(late).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(await service.get(key)).toBeUndefined();
  });

  it('keeps serving a session after a failed append (the chain does not stay rejected)', async () => {
    const service = new MemorySessionService();
    const key = await service.create({ appName: 'app', userId: 'u1', sessionId: 's1' });
    const failing = service.appendEvent(key, event('e1', Date.now(), { fn: () => 1 }));
    const next = service.appendEvent(key, event('e2', Date.now(), { ok: true }));
    await expect(failing).rejects.toThrow();
    await next;
    expect((await service.get(key))?.state).toEqual({ ok: true });
    expect((await service.get(key))?.events.map((item) => item.id)).toEqual(['e2']);
  });

  it('keeps values structuredClone can copy, such as dates and maps', async () => {
    const service = new MemorySessionService();
    const at = new Date(0);
    const key = await service.create({
      appName: 'app',
      userId: 'u1',
      state: { at, seen: new Map([['a', 1]]) },
    });
    const state = (await service.get(key))?.state;
    expect(state?.at).toEqual(at);
    expect(state?.at).not.toBe(at);
    expect(state?.seen).toEqual(new Map([['a', 1]]));
  });
});
