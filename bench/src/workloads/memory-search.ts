// Long-term search on the durable stores: a compose Store's `search` over N documents (10,000 in a full
// run) on PostgreSQL (by a metadata filter and by a vector query; the SQLite rows are in store-search),
// and the adk MemoryService's `search` over one user's N memories on SQLite and PostgreSQL, ranked by
// keywords (every memory scanned) and by vectors (HashingEmbeddings, 256 dims). PostgreSQL rows run
// when WEFT_PG_URL is set (a schema of their own, dropped after); PostgreSQL ranks vector queries in the
// database when the server has pgvector (the `pgvector` workload compares both paths), else in process.

import { StoreMemoryService, userMessage } from '@weft/adk';
import { HashingEmbeddings, type Store } from '@weft/compose';
import { PostgresStore } from '@weft/store-postgres';
import { SqliteStore } from '@weft/store-sqlite';
import pg from 'pg';
import { expectEqual } from '../harness.ts';
import type { Row } from '../table.ts';
import { type BenchContext, compareRow, measures, pick, type Workload } from '../workload.ts';

const WORDS = ['tea', 'coffee', 'window', 'aisle', 'train', 'flight', 'hotel', 'vegan', 'spicy', 'quiet'];
const embeddings = new HashingEmbeddings({ dimensions: 256 });
const QUERY = 'window seat on a quiet train';
const KEY = { appName: 'bench', userId: 'u1', sessionId: 's1' };

function text(i: number): string {
  return `the user likes ${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} ${WORDS[(i * 3 + 1) % 10]} item${i}`;
}

/** N documents under ['docs', …] and N memories of one user, in one store. */
async function fill(store: Store, count: number): Promise<StoreMemoryService> {
  for (let i = 0; i < count; i++) {
    await store.put(['docs', `u${i % 100}`], `k${i}`, {
      text: text(i),
      kind: i % 4 === 0 ? 'preference' : 'fact',
      n: i,
    });
  }
  const memory = new StoreMemoryService({ store, scanLimit: count });
  for (let start = 0; start < count; start += 500) {
    const messages = Array.from({ length: Math.min(500, count - start) }, (_, j) =>
      userMessage(text(start + j), { id: `m${start + j}` }),
    );
    await memory.addMessages(KEY, messages);
  }
  return memory;
}

interface Backend {
  readonly label: string;
  readonly plain: Store;
  readonly indexed: Store;
  readonly close: () => Promise<void>;
}

async function backends(): Promise<Backend[]> {
  const index = { embeddings, fields: ['text'] };
  const sqlite = { plain: new SqliteStore(), indexed: new SqliteStore({ index }) };
  const list: Backend[] = [
    {
      label: 'SQLite',
      ...sqlite,
      close: async () => {
        await sqlite.plain.close();
        await sqlite.indexed.close();
      },
    },
  ];
  const url = process.env.WEFT_PG_URL;
  if (url) {
    const schema = `weft_bench_${process.pid}_${Date.now().toString(36)}`;
    const plain = new PostgresStore({ connectionString: url, schema });
    const indexed = new PostgresStore({ connectionString: url, schema, tablePrefix: 'weft_vec_', index });
    await plain.setup();
    await indexed.setup();
    list.push({
      label: 'PostgreSQL',
      plain,
      indexed,
      close: async () => {
        await indexed.close();
        await plain.close();
        await dropSchema(url, schema);
      },
    });
  }
  return list;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

async function run(context: BenchContext): Promise<Row[]> {
  if (!measures(context, 'weft')) return [];
  const count = pick(context, 10_000, 2_000);
  const rows: Row[] = [];
  const check = (hits: number) => expectEqual('hits', hits, 10);
  const stores = await backends();
  if (stores.length === 1) context.log('  memory-search: WEFT_PG_URL is not set; PostgreSQL rows skipped');
  for (const backend of stores) {
    context.log(
      `  memory-search: filling ${backend.label} with ${count} documents and ${count} memories (twice)`,
    );
    const keyword = await fill(backend.plain, count);
    const vector = await fill(backend.indexed, count);
    const search = (memory: StoreMemoryService) => async () =>
      (await memory.search(QUERY, { appName: KEY.appName, userId: KEY.userId, limit: 10 })).length;
    if (backend.label !== 'SQLite') {
      rows.push(
        await compareRow<number>(context, {
          workload: `store search: ${count} docs, filter, limit 10 (${backend.label})`,
          unit: 'ms',
          runs: {
            weft: async () =>
              (await backend.plain.search(['docs'], { filter: { kind: 'preference' }, limit: 10 })).length,
          },
          check,
        }),
        await compareRow<number>(context, {
          workload: `store search: ${count} docs, vector query, limit 10 (${backend.label})`,
          unit: 'ms',
          runs: {
            weft: async () => (await backend.indexed.search(['docs'], { query: QUERY, limit: 10 })).length,
          },
          check,
        }),
      );
    }
    rows.push(
      await compareRow<number>(context, {
        workload: `memory search: ${count} memories, keywords, limit 10 (${backend.label})`,
        unit: 'ms',
        runs: { weft: search(keyword) },
        check,
      }),
      await compareRow<number>(context, {
        workload: `memory search: ${count} memories, vectors, limit 10 (${backend.label})`,
        unit: 'ms',
        runs: { weft: search(vector) },
        check,
      }),
    );
    await backend.close();
  }
  return rows;
}

export const memorySearchWorkload: Workload = { name: 'memory-search', run };
