import type { Embeddings, StoreSearchItem } from '@weft/compose';
import { describeStoreConformance } from '@weft/compose/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { withSharedPostgres } from '../test/shared-postgres.js';
import { PostgresStore } from './postgres-store.js';

const url = process.env.WEFT_PG_URL ?? '';

/**
 * Dense embeddings, as real models make them (a hashed bag of words is sparse, and gives many documents
 * one vector, which no approximate index ranks like an exact scan): each word a fixed pseudo-random
 * vector, a text the sum of its words'.
 */
class DenseEmbeddings implements Embeddings {
  readonly dimensions = 32;
  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => {
      const sum = new Array<number>(this.dimensions).fill(0);
      for (const word of text.toLowerCase().split(/\s+/).filter(Boolean)) {
        let seed = 2166136261;
        for (const char of word) seed = Math.imul(seed ^ char.charCodeAt(0), 16777619) >>> 0;
        for (let i = 0; i < this.dimensions; i++) {
          seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
          sum[i] = (sum[i] as number) + (seed / 2 ** 32 - 0.5);
        }
      }
      return sum;
    });
  }
}

const embeddings = new DenseEmbeddings();
const WORDS =
  'tea coffee window aisle train flight hotel vegan spicy quiet seat on a sunny rainy early late cheap fast slow'.split(
    ' ',
  );
/** A document of 2–9 words drawn by a fixed pseudo-random sequence: few documents score alike. */
const text = (i: number) => {
  let seed = (i + 1) * 2654435761;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed;
  };
  const count = 2 + (next() % 8);
  return `${Array.from({ length: count }, () => WORDS[next() % WORDS.length]).join(' ')} item${i}`;
};

/** Whether this server can load pgvector (Debian's postgresql-NN-pgvector, installed by `.ci/run`). */
async function pgvectorInstalled(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  return rows.length > 0;
}

/** How many scans the HNSW indexes of a schema's vector table have served. */
async function hnswScans(pool: pg.Pool, schema: string): Promise<number> {
  const { rows } = await pool.query<{ scans: string }>(
    `SELECT coalesce(sum(idx_scan), 0) AS scans FROM pg_stat_user_indexes
     WHERE schemaname = $1 AND indexrelname LIKE '%hnsw%'`,
    [schema],
  );
  return Number(rows[0]?.scans ?? 0);
}

const keysAndScores = (hits: readonly StoreSearchItem[]) =>
  hits.map((hit) => [hit.key, Number(hit.score?.toFixed(4))]);

withSharedPostgres('PostgresStore vector search', ({ pool, schema: fresh, drop }) => {
  // The store suite again, ranked in process whatever the server has (the fallback path).
  describeStoreConformance('PostgresStore, in-process ranking', async (options) => {
    const schema = fresh('store_inproc');
    const store = new PostgresStore({ pool, schema, ...options, vectorSearch: 'in-process' });
    await store.setup();
    return { store, cleanup: () => drop(schema) };
  });

  describe('with pgvector', () => {
    it('ranks in the database as the exact path does: prefixes, best field, filters, paging, writes, expiry', async (context) => {
      if (!(await pgvectorInstalled(pool))) {
        console.warn('pgvector is not installed on this server: skipping (.ci/run installs it)');
        context.skip();
      }
      const schema = fresh('pgvector');
      let time = 1_700_000_000_000;
      const index = { embeddings, fields: ['text', 'tags[*]'] };
      const store = new PostgresStore({ pool, schema, index, now: () => time });
      await store.setup();
      expect(await store.vectorSearch()).toBe('database');
      const exact = new PostgresStore({ pool, schema, index, now: () => time, vectorSearch: 'in-process' });
      expect(await exact.vectorSearch()).toBe('in-process');
      for (let i = 0; i < 200; i++) {
        time += 1;
        const tags = i % 5 === 0 ? [`window seat ${i}`] : [];
        await store.put(['docs', `u${i % 3}`], `k${i}`, {
          text: text(i),
          tags,
          kind: i % 4 === 0 ? 'a' : 'b',
        });
      }
      await store.put(['docs', 'u0'], 'plain', { text: 'window seat quiet train' }, { index: false });
      await store.put(['docs', 'u0'], 'brief', { text: 'window seat quiet train' }, { ttlMs: 50 });
      const query = 'window seat on a quiet train';
      const same = async (prefix: string[], options: object) =>
        expect(keysAndScores(await store.search(prefix, { query, ...options }))).toEqual(
          keysAndScores(await exact.search(prefix, { query, ...options })),
        );
      await same(['docs'], { limit: 10 });
      await same(['docs', 'u1'], { filter: { kind: 'a' }, limit: 7, offset: 3 });
      time += 100; // 'brief' expires
      await same(['docs'], { limit: 10 });
      expect((await store.search(['docs'], { query, limit: 300 })).map((hit) => hit.key)).not.toContain(
        'brief',
      );
      // replaced and deleted documents take their vectors with them; a store object that ranks in
      // process keeps the vector table up to date as well
      await store.put(['docs', 'u0'], 'k0', { text: 'nothing about travel' });
      await store.delete(['docs', 'u2'], 'k5');
      await exact.put(['docs', 'u1'], 'k10', { text: 'nothing about travel either' });
      const vectorRows = async () =>
        (await pool.query(`SELECT count(*)::int AS n FROM "${schema}".weft_store_vectors`)).rows[0]?.n;
      // one per text and tag, 'brief' (expired) included; k0 and k10 lost their tag, k5 both
      expect(await vectorRows()).toBe(200 + 40 + 1 - 1 - 2 - 1);
      expect(await store.sweep()).toBe(1);
      expect(await vectorRows()).toBe(200 + 40 - 1 - 2 - 1);
      await same(['docs'], { limit: 20 });
      // past the prefix's vectors the exact path answers (documents without vectors last)
      const all = await store.search(['docs', 'u0'], { query, limit: 500 });
      expect(all.at(-1)?.key).toBe('plain');
      await same(['docs', 'u0'], { limit: 500 });
    });

    it('searches through an HNSW index: scores exact, recall as an approximate index gives it', async (context) => {
      if (!(await pgvectorInstalled(pool))) context.skip();
      const schema = fresh('pgvector_hnsw');
      const index = { embeddings, fields: ['text'] };
      const store = new PostgresStore({ pool, schema, index });
      await store.setup();
      const exact = new PostgresStore({ pool, schema, index, vectorSearch: 'in-process' });
      for (let i = 0; i < 3000; i++) await store.put(['docs', `u${i % 3}`], `k${i}`, { text: text(i) });
      await pool.query(`ANALYZE "${schema}".weft_store_vectors`);
      const query = 'window seat on a quiet train';
      const scans = await hnswScans(pool, schema);
      const found = await store.search(['docs'], { query, limit: 10 });
      // the index served it (index statistics reach pg_stat_user_indexes once the backend reports them)
      await expect.poll(() => hnswScans(pool, schema), { timeout: 60_000 }).toBeGreaterThan(scans);
      const truth = await exact.search(['docs'], { query, limit: 10 });
      const exactScore = new Map(
        (await exact.search(['docs'], { query, limit: 3000 })).map((hit) => [hit.key, hit.score]),
      );
      expect(found).toHaveLength(10);
      for (const hit of found) expect(hit.score).toBe(exactScore.get(hit.key)); // rescored exactly
      expect(found.map((hit) => hit.score)).toEqual(
        [...found.map((hit) => hit.score)].sort((x, y) => (y ?? 0) - (x ?? 0)),
      );
      // HNSW is approximate: most of the true ten, never one that is not among the nearest found
      const recall = found.filter((hit) => truth.some((t) => t.key === hit.key)).length / 10;
      expect(recall).toBeGreaterThanOrEqual(0.7);
      // without the documents' own vectors only the database can still rank them
      await pool.query(`UPDATE "${schema}".weft_store SET vectors = NULL, dims = NULL`);
      const ranked = await store.search(['docs'], { query, limit: 10 });
      expect(ranked.map((hit) => hit.key)).toEqual(found.map((hit) => hit.key));
      expect(
        (await exact.search(['docs'], { query, limit: 10 })).every((hit) => hit.score === undefined),
      ).toBe(true);
    }, 600_000);

    it('indexes documents written before pgvector was used (a store that ranked in process)', async (context) => {
      if (!(await pgvectorInstalled(pool))) context.skip();
      const schema = fresh('pgvector_late');
      const index = { embeddings, fields: ['text'] };
      const early = new PostgresStore({ pool, schema, index, vectorSearch: 'in-process' });
      await early.setup();
      for (let i = 0; i < 50; i++) await early.put(['docs'], `k${i}`, { text: text(i) });
      const store = new PostgresStore({ pool, schema, index });
      await store.setup();
      const query = 'quiet train';
      expect(keysAndScores(await store.search(['docs'], { query, limit: 5 }))).toEqual(
        keysAndScores(await early.search(['docs'], { query, limit: 5 })),
      );
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".weft_store_vectors`);
      expect(rows[0]?.n).toBe(50);
    });
  });
});

describe.skipIf(url === '')('PostgresStore without pgvector', () => {
  it('falls back to in-process ranking when the extension cannot be created, and says so', async () => {
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    const id = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
    const database = `weft_novector_${id}`;
    const role = `weft_novector_${id}`;
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`CREATE DATABASE ${database} OWNER postgres`);
    const target = new URL(url);
    target.username = role;
    target.pathname = `/${database}`;
    const pool = new pg.Pool({ connectionString: target.href, max: 2 });
    pool.on('error', () => undefined); // its connections end with the database dropped below
    try {
      await admin.query(`GRANT CREATE ON DATABASE ${database} TO ${role}`);
      const store = new PostgresStore({ pool, schema: role, index: { embeddings, fields: ['text'] } });
      await store.setup();
      expect(await store.vectorSearch()).toBe('in-process');
      await store.put(['docs'], 'tea', { text: 'green tea every morning' });
      await store.put(['docs'], 'seat', { text: 'a window seat on the train' });
      const [best] = await store.search(['docs'], { query: 'window seat', limit: 1 });
      expect(best?.key).toBe('seat');
      const strict = new PostgresStore({
        pool,
        schema: role,
        index: { embeddings },
        vectorSearch: 'database',
      });
      await expect(strict.setup()).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    } finally {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });
});
