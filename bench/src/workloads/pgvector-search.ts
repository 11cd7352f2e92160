// PostgreSQL vector search over N documents (100,000 in a full run) in one namespace prefix: the same
// PostgresStore schema searched in the database (pgvector's HNSW index, cosine; `vectorSearch: 'auto'`
// on a server that has the extension) and in process (`vectorSearch: 'in-process'`: every document of the
// prefix read with its vectors and scored). Weft only, both timed interleaved, so the note's ratio
// (in-process / in-database) holds within one run. Needs WEFT_PG_URL and pgvector (`.ci/run` installs it);
// the rows say why when either is missing.

import { HashingEmbeddings } from '@weft/compose';
import { PostgresStore } from '@weft/store-postgres';
import pg from 'pg';
import { expectEqual } from '../harness.ts';
import { interleaved, ratio } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const WORDS = ['tea', 'coffee', 'window', 'aisle', 'train', 'flight', 'hotel', 'vegan', 'spicy', 'quiet'];
const embeddings = new HashingEmbeddings({ dimensions: 128 });
const QUERY = 'window seat on a quiet train';
/** Puts in flight while filling (the store's pool has 10 connections). */
const FILL_CONCURRENCY = 16;

function doc(i: number): { text: string; n: number } {
  const words = [WORDS[i % 10], WORDS[(i * 7) % 10], WORDS[(i * 3 + 1) % 10], WORDS[(i * 11 + 5) % 10]];
  return { text: `the user likes ${words.join(' ')} item${i}`, n: i };
}

async function fill(store: PostgresStore, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await store.put(['docs', `u${i % 100}`], `k${i}`, doc(i));
  };
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

function skipped(count: number, why: string): Row {
  return {
    workload: `pgvector search: ${count} docs, limit 10`,
    unit: 'ms/invoke',
    weft: 'pending',
    langgraph: null,
    floor: null,
    heap: '',
    ratios: false,
    notes: [`pgvector search: (pending: ${why})`],
    failures: [],
  };
}

async function run(context: BenchContext): Promise<Row[]> {
  if (!measures(context, 'weft')) return [];
  const count = pick(context, 100_000, 5_000);
  const url = process.env.WEFT_PG_URL;
  if (!url) return [skipped(count, 'WEFT_PG_URL is not set')];
  const schema = `weft_bench_pgv_${process.pid}_${Date.now().toString(36)}`;
  const index = { embeddings, fields: ['text'] };
  const database = new PostgresStore({ connectionString: url, schema, index });
  const inProcess = new PostgresStore({ connectionString: url, schema, index, vectorSearch: 'in-process' });
  try {
    await database.setup();
    if ((await database.vectorSearch()) !== 'database')
      return [skipped(count, 'pgvector is not installed on this server')];
    context.log(`  pgvector: filling ${count} documents (HNSW index maintained on every put)`);
    const started = Date.now();
    await fill(database, count);
    const fillSeconds = (Date.now() - started) / 1000;
    await database.search(['docs'], { query: QUERY, limit: 10 }); // plans and caches its statements
    const check = (hits: unknown) => expectEqual('hits', hits, 10);
    const search = (store: PostgresStore) => async () =>
      (await store.search(['docs'], { query: QUERY, limit: 10 })).length;
    const [inDatabase, scanned] = (await interleaved(
      context,
      { prefix: 'pgvector search', size: `${count} docs, limit 10` },
      [
        { label: 'in the database (HNSW)', once: search(database), check },
        { label: 'in process (prefix scanned)', once: search(inProcess), check },
      ],
      1,
    )) as [Row, Row];
    return [
      { ...inDatabase, heap: `samples interleaved; filled in ${fillSeconds.toFixed(0)} s` },
      {
        ...scanned,
        heap: '',
        notes: [
          `pgvector: in process / in the database = ${ratio(scanned, inDatabase)} (${count} documents)`,
        ],
      },
    ];
  } finally {
    await database.close();
    await inProcess.close();
    await dropSchema(url, schema);
  }
}

export const pgvectorSearchWorkload: Workload = { name: 'pgvector', run };
