import { CheckpointConflictError, WeftError } from '@weft/compose';
import type { CheckpointRecord } from '@weft/compose/store';
import { describeCheckpointerConformance } from '@weft/compose/testing';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommitGroup } from './commit-group.js';
import { PostgresCheckpointer } from './postgres-checkpointer.js';

const url = process.env.WEFT_PG_URL;
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

function freshSchema(): string {
  schemaCount += 1;
  return `weft_test_group_${runId}_${schemaCount}`;
}

function record(threadId: string, seq: number, overrides: Partial<CheckpointRecord> = {}): CheckpointRecord {
  const id = `${threadId}-${String(seq).padStart(4, '0')}`;
  return {
    threadId,
    ns: '',
    id,
    seq,
    parentId: null,
    baseId: id,
    step: seq,
    source: 'loop',
    createdAt: '2024-01-01T00:00:00.000Z',
    metadata: { step: seq },
    payload: `payload-${id}`,
    ...overrides,
  };
}

/** A pool that counts the group-commit statements it runs (one statement is one commit). */
function countingPool(connectionString: string): { pool: pg.Pool; commits: () => number } {
  const pool = new pg.Pool({ connectionString, max: 5 });
  let commits = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [config] = args as [{ name?: string } | string];
    if (typeof config === 'object' && config.name?.endsWith('_group_put') === true) commits += 1;
    return query(...args);
  };
  return { pool, commits: () => commits };
}

describe('CommitGroup', () => {
  it('commits a lone item at once and what arrives meanwhile together, at most maxBatch per batch', async () => {
    const batches: number[][] = [];
    const gates: (() => void)[] = [];
    let started: () => void = () => undefined;
    const group = new CommitGroup<number>((items) => {
      batches.push([...items]);
      started();
      return new Promise((resolve) => gates.push(() => resolve(items.map(() => undefined))));
    }, 3);
    const nextBatch = (): Promise<void> =>
      new Promise<void>((resolve) => {
        started = resolve;
      });
    const first = group.submit(0);
    expect(batches).toEqual([[0]]);
    const rest = [1, 2, 3, 4].map((item) => group.submit(item));
    expect(batches).toEqual([[0]]);
    let batch = nextBatch();
    gates.shift()?.();
    await Promise.all([first, batch]);
    expect(batches).toEqual([[0], [1, 2, 3]]);
    batch = nextBatch();
    gates.shift()?.();
    await Promise.all([...rest.slice(0, 3), batch]);
    expect(batches).toEqual([[0], [1, 2, 3], [4]]);
    gates.shift()?.();
    await Promise.all(rest);
    await group.idle();
  });

  it('fails one item alone when the batch says so, and every item when the batch throws', async () => {
    let call = 0;
    const group = new CommitGroup<string>(async (items) => {
      call += 1;
      if (call === 2) throw new Error('connection lost');
      return items.map((item) => (item === 'bad' ? new Error(`refused ${item}`) : undefined));
    }, 10);
    const settled = await Promise.allSettled([
      group.submit('good'),
      group.submit('bad'),
      group.submit('other'),
    ]);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/connection lost/);
    const again = await Promise.allSettled([group.submit('good'), group.submit('bad')]);
    expect(again.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(String((again[1] as PromiseRejectedResult).reason)).toMatch(/refused bad/);
  });

  it('names the option when maxBatch is not a positive integer', () => {
    expect(() => new CommitGroup(async () => [], 0)).toThrow(/groupCommit.maxBatch/);
  });
});

describe.skipIf(url === undefined || url === '')('PostgresCheckpointer with groupCommit', () => {
  const connectionString = url ?? '';

  describeCheckpointerConformance('PostgresCheckpointer (groupCommit)', async () => {
    const pool = new pg.Pool({ connectionString, max: 5 });
    const schema = freshSchema();
    const checkpointer = new PostgresCheckpointer({ pool, schema, groupCommit: true });
    await checkpointer.setup();
    return {
      checkpointer,
      cleanup: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      },
    };
  });

  describe('batching', () => {
    let schema: string;
    let counted: ReturnType<typeof countingPool>;

    beforeEach(() => {
      schema = freshSchema();
      counted = countingPool(connectionString);
    });

    afterEach(async () => {
      await counted.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await counted.pool.end();
    });

    async function store(maxBatch?: number): Promise<PostgresCheckpointer> {
      const groupCommit = maxBatch === undefined ? true : { maxBatch };
      const checkpointer = new PostgresCheckpointer({ pool: counted.pool, schema, groupCommit });
      await checkpointer.setup();
      return checkpointer;
    }

    it('stores 40 concurrent puts of 40 threads in 2 commits, every one durable', async () => {
      const checkpointer = await store();
      const records = Array.from({ length: 40 }, (_, index) => record(`thread-${index}`, 1));
      await Promise.all(records.map((each) => checkpointer.put(each)));
      expect(counted.commits()).toBe(2);
      // Read back on a connection of its own: each put was committed when it resolved.
      const reader = new pg.Client({ connectionString });
      await reader.connect();
      const { rows } = await reader.query(`SELECT count(*)::int AS n FROM "${schema}".weft_checkpoints`);
      await reader.end();
      expect(rows[0]).toEqual({ n: 40 });
      for (const each of records) expect((await checkpointer.get(each.threadId))?.checkpoint).toEqual(each);
    });

    it('bounds a commit at maxBatch puts', async () => {
      const checkpointer = await store(5);
      await Promise.all(
        Array.from({ length: 21 }, (_, index) => checkpointer.put(record(`thread-${index}`, 1))),
      );
      expect(counted.commits()).toBe(5);
    });

    it('fails a conflicting put alone with its typed error while the rest of its batch commits', async () => {
      const checkpointer = await store();
      await checkpointer.put(record('taken', 1));
      const before = counted.commits();
      const settled = await Promise.allSettled([
        checkpointer.put(record('leader', 1)),
        checkpointer.put(record('taken', 1, { id: 'taken-other' })),
        checkpointer.put(record('free', 1)),
        checkpointer.put(record('taken', 2, { id: 'taken-0001' })),
        checkpointer.put(record('twice', 1)),
        checkpointer.put(record('twice', 1, { id: 'twice-rival' })),
        checkpointer.putWrites({
          threadId: 'free',
          ns: '',
          checkpointId: 'free-0001',
          taskId: 'a',
          payload: 'w',
        }),
      ]);
      expect(counted.commits() - before).toBe(2);
      expect(settled.map((result) => result.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      const reason = (index: number): unknown => (settled[index] as PromiseRejectedResult).reason;
      expect(reason(1)).toBeInstanceOf(CheckpointConflictError);
      expect(WeftError.isInstance(reason(3))).toBe(true);
      expect(reason(3)).toMatchObject({ code: 'CHECKPOINT' });
      expect(reason(3)).not.toBeInstanceOf(CheckpointConflictError);
      expect(reason(5)).toBeInstanceOf(CheckpointConflictError);
      expect((await checkpointer.get('taken'))?.checkpoint).toEqual(record('taken', 1));
      expect((await checkpointer.get('twice'))?.checkpoint).toEqual(record('twice', 1));
      const free = await checkpointer.get('free');
      expect(free?.checkpoint).toEqual(record('free', 1));
      expect(free?.writes.map((write) => write.payload)).toEqual(['w']);
    });

    it('keeps the last of two task writes of one key in a batch, as sequential upserts do', async () => {
      const checkpointer = await store();
      const writes = { threadId: 't', ns: '', checkpointId: 't-0001', taskId: 'a' };
      await Promise.all([
        checkpointer.put(record('t', 1)),
        checkpointer.putWrites({ ...writes, payload: 'first' }),
        checkpointer.putWrites({ ...writes, payload: 'second' }),
      ]);
      expect(counted.commits()).toBe(2);
      expect((await checkpointer.get('t'))?.writes.map((write) => write.payload)).toEqual(['second']);
    });

    it('fails every put of a batch whose statement fails, with the setup() hint', async () => {
      const checkpointer = new PostgresCheckpointer({ pool: counted.pool, schema, groupCommit: true });
      const settled = await Promise.allSettled([
        checkpointer.put(record('a', 1)),
        checkpointer.put(record('b', 1)),
      ]);
      for (const result of settled) {
        expect(result.status).toBe('rejected');
        expect(String((result as PromiseRejectedResult).reason)).toMatch(/call await checkpointer.setup\(\)/);
      }
    });

    it('names the option when maxBatch is not a positive integer', () => {
      expect(
        () => new PostgresCheckpointer({ pool: counted.pool, schema, groupCommit: { maxBatch: 1.5 } }),
      ).toThrow(/groupCommit.maxBatch must be a positive integer, got 1.5/);
    });
  });
});
