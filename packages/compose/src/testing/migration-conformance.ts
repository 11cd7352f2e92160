import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import { StateGraph } from '../graph/state-graph.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import type { CheckpointerFixture } from './checkpointer-conformance.js';

function named(checkpointer: Checkpointer) {
  return new StateGraph(z.object({ name: z.string(), ok: z.boolean().optional() }))
    .addNode('ask', (_state, ctx) => ({ ok: ctx.interrupt<boolean>('ok?') }))
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer, name: 'people' });
}

function split(checkpointer: Checkpointer) {
  return new StateGraph(z.object({ first: z.string(), last: z.string(), ok: z.boolean().optional() }))
    .addNode('ask', (_state, ctx) => ({ ok: ctx.interrupt<boolean>('ok?') }))
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({
      checkpointer,
      name: 'people',
      stateVersion: 2,
      migrations: {
        1: ({ name, ...rest }) => {
          const [first = '', last = ''] = String(name).split(' ');
          return { ...rest, first, last };
        },
      },
    });
}

/**
 * Registers the shared state-migration suite on a store: a thread paused under state version 1 resumes
 * under version 2 (migrated on load, its next checkpoint a snapshot recording version 2 and the graph's
 * name), and a version 1 graph refuses it afterwards with a `StateVersionError`.
 *
 * @example
 * ```ts
 * import { describeMigrationConformance } from '@weft/compose/testing';
 *
 * describeMigrationConformance('MemoryCheckpointer', async () => ({ checkpointer: new MemoryCheckpointer() }));
 * ```
 */
export function describeMigrationConformance(
  name: string,
  factory: () => Promise<CheckpointerFixture>,
): void {
  describe(`${name} (state migration conformance)`, () => {
    let fixture: CheckpointerFixture | undefined;
    beforeEach(async () => {
      fixture = await factory();
    });
    afterEach(async () => {
      const current = fixture;
      fixture = undefined;
      await current?.checkpointer.close?.();
      await current?.cleanup?.();
    });
    const store = (): Checkpointer => {
      if (fixture === undefined) throw new Error('the migration factory did not produce a store');
      return fixture.checkpointer;
    };

    it('resumes a version 1 thread under version 2, stores it migrated, and refuses it to version 1', async () => {
      await named(store()).run({ name: 'Ada Lovelace' }, { threadId: 't' });
      expect((await store().get('t'))?.checkpoint.metadata).toMatchObject({
        graph: 'people',
        stateVersion: 1,
      });
      const app = split(store());
      expect(await app.invoke(new Command({ resume: true }), { threadId: 't' })).toEqual({
        first: 'Ada',
        last: 'Lovelace',
        ok: true,
      });
      const head = (await store().get('t'))?.checkpoint;
      expect(head?.metadata).toMatchObject({ graph: 'people', stateVersion: 2 });
      expect(head?.baseId).toBe(head?.id);
      await expect(named(store()).getState('t')).rejects.toMatchObject({
        code: 'STATE_VERSION',
        reason: 'newer',
        threadId: 't',
        checkpointId: head?.id,
      });
    });
  });
}
