import { describe, expect, it } from 'vitest';
import { CheckpointSession } from './checkpoint-session.js';
import { durableContext } from './durable-context.js';
import type { DurableTarget } from './durable-target.js';
import { MemoryCheckpointer } from './memory-checkpointer.js';

const target: DurableTarget = {
  checkpointer: new MemoryCheckpointer(),
  threadId: 'durable-context-thread',
  ns: 'outer:1',
  durability: 'async',
  parents: { '': 'root-id' },
  taskWrites: 'all',
};

function session(): CheckpointSession {
  const { checkpointer, threadId, ns, durability, parents } = target;
  const graph = { name: 'graph', versioning: { version: 1, migrations: new Map() } };
  return new CheckpointSession({ graph, checkpointer, threadId, ns, durability, parents });
}

describe('durableContext', () => {
  it("carries the target's thread and reads resume values and the session's head when asked", () => {
    let resumeById: ReadonlyMap<string, unknown> = new Map();
    const written = session();
    const context = durableContext(target, written, {
      resumeById: () => resumeById,
      storesTaskCalls: true,
    });
    expect(context).toMatchObject({
      checkpointer: target.checkpointer,
      threadId: 'durable-context-thread',
      ns: 'outer:1',
      durability: 'async',
      parents: { '': 'root-id' },
      taskWrites: 'all',
    });
    resumeById = new Map([['i1', 'yes']]);
    expect(context.resumeById.get('i1')).toBe('yes');
    expect(context.currentId()).toBeUndefined();
    written.currentId = 'head-1';
    expect(context.currentId()).toBe('head-1');
  });

  it('offers putWrite only when task calls are stored (Pregel mode), not in DAG mode', () => {
    const live = { resumeById: () => new Map<string, unknown>() };
    expect(durableContext(target, session(), { ...live, storesTaskCalls: true }).putWrite).toBeTypeOf(
      'function',
    );
    expect(durableContext(target, session(), { ...live, storesTaskCalls: false }).putWrite).toBeUndefined();
  });
});
