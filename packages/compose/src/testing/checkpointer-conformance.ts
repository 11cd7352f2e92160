import { afterEach, beforeEach, describe } from 'vitest';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import { describeConflictCases } from './conformance/conflict-cases.js';
import { describeCorruptionCases } from './conformance/corruption-cases.js';
import { describeEffectCases } from './conformance/effect-cases.js';
import { describeListCases } from './conformance/list-cases.js';
import { describeReadCases } from './conformance/read-cases.js';
import { describeVolumeCases } from './conformance/volume-cases.js';
import { describeWriteCases } from './conformance/write-cases.js';

/**
 * What a conformance factory returns: a fresh, empty store and how to dispose of it.
 *
 * @example
 * ```ts
 * const fixture: CheckpointerFixture = { checkpointer: new MemoryCheckpointer() };
 * ```
 */
export interface CheckpointerFixture {
  readonly checkpointer: Checkpointer;
  /** Runs after `checkpointer.close()` (if defined): drop tables, delete files. */
  readonly cleanup?: () => Promise<void>;
}

/**
 * Registers the shared checkpoint-store conformance suite (vitest `describe`/`it` blocks); every store must
 * pass it. `factory` runs before each test and must return a fresh, empty store; after each test the suite
 * calls `checkpointer.close()` (if defined) and then `cleanup()`.
 *
 * Covered: put/get latest and by id, unknown threads, namespace isolation, list order, `limit`, `before`,
 * `baseId` and `filter` (JSON equality of nested values), task writes (insertion order, replacement, the
 * right checkpoint), duplicate puts, `deleteThread`, 1 MB and unicode payloads, concurrent puts, order by
 * `seq` whatever the ids say, and one writer per thread (a taken `seq` conflicts, also among 20 concurrent
 * puts; a claimed thread refuses a second claim until released), checksums kept as given, and corrupt
 * state refused by the engine (a changed delta value, a number stored as a string, an invalid Date tag)
 * while rows written before checksums still load; and effects (`ctx.effect`): a continued thread gets the
 * recorded result under the same idempotency key, a fenced run records nothing, a replay does not repeat it.
 *
 * @example
 * ```ts
 * import { describeCheckpointerConformance } from '@weft/compose/testing';
 *
 * describeCheckpointerConformance('MemoryCheckpointer', async () => {
 *   const checkpointer = new MemoryCheckpointer(); // your store, opened fresh for each test
 *   return { checkpointer, cleanup: async () => {} }; // drop its tables / delete its files here
 * });
 * ```
 */
export function describeCheckpointerConformance(
  name: string,
  factory: () => Promise<CheckpointerFixture>,
): void {
  describe(`${name} (checkpointer conformance)`, () => {
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
      if (fixture === undefined) throw new Error('the conformance factory did not produce a store');
      return fixture.checkpointer;
    };

    describeReadCases(store);
    describeListCases(store);
    describeWriteCases(store);
    describeVolumeCases(store);
    describeConflictCases(store);
    describeCorruptionCases(store);
    describeEffectCases(store);
  });
}
