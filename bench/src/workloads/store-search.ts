// Long-term store search: `search` over N documents (10,000 in a full run) in one namespace prefix, by a
// metadata filter and by a vector query (HashingEmbeddings, 256 dims, embedded on put; the query is
// embedded per search). Weft's MemoryStore against LangGraph's InMemoryStore (same embedding function)
// and a plain-array floor; Weft's SqliteStore on its own rows.

import { InMemoryStore } from '@langchain/langgraph';
import { HashingEmbeddings, MemoryStore, type Store } from '@weft/compose';
import { cosineSimilarity } from '@weft/compose/store';
import { SqliteStore } from '@weft/store-sqlite';
import { expectEqual } from '../harness.ts';
import type { Row } from '../table.ts';
import { type BenchContext, compareRow, measures, pick, type Workload } from '../workload.ts';

const WORDS = ['tea', 'coffee', 'window', 'aisle', 'train', 'flight', 'hotel', 'vegan', 'spicy', 'quiet'];
const embeddings = new HashingEmbeddings({ dimensions: 256 });

function doc(i: number): { text: string; kind: string; n: number } {
  const words = [WORDS[i % 10], WORDS[(i * 7) % 10], WORDS[(i * 3 + 1) % 10], `item${i}`];
  return { text: `the user likes ${words.join(' ')}`, kind: i % 4 === 0 ? 'preference' : 'fact', n: i };
}

async function fill(store: Store, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await store.put(['docs', `u${i % 100}`], `k${i}`, doc(i));
}

async function langGraphStore(count: number, vectors: boolean): Promise<InMemoryStore> {
  const lgEmbeddings = {
    embedDocuments: (texts: string[]) => embeddings.embed(texts),
    embedQuery: async (text: string) => (await embeddings.embed([text]))[0] ?? [],
  };
  const store = new InMemoryStore(
    // biome-ignore lint/suspicious/noExplicitAny: LangGraph types its index with @langchain/core's Embeddings class; this object has the two methods it calls.
    vectors ? { index: { dims: 256, embeddings: lgEmbeddings as any, fields: ['text'] } } : undefined,
  );
  for (let i = 0; i < count; i++) {
    await store.put(['docs', `u${i % 100}`], `k${i}`, doc(i), vectors ? ['text'] : false);
  }
  return store;
}

async function floorVectors(count: number): Promise<{ value: ReturnType<typeof doc>; vector: number[] }[]> {
  const values = Array.from({ length: count }, (_, i) => doc(i));
  const vectors = await embeddings.embed(values.map((value) => value.text));
  return values.map((value, i) => ({ value, vector: vectors[i] ?? [] }));
}

const QUERY = 'window seat on a quiet train';

async function run(context: BenchContext): Promise<Row[]> {
  const count = pick(context, 10_000, 2_000);
  context.log(`  store-search: filling stores with ${count} documents`);
  const weft = measures(context, 'weft');
  const plain = weft ? new MemoryStore() : undefined;
  const indexed = weft ? new MemoryStore({ index: { embeddings, fields: ['text'] } }) : undefined;
  const sqlite = weft ? new SqliteStore() : undefined;
  const sqliteIndexed = weft ? new SqliteStore({ index: { embeddings, fields: ['text'] } }) : undefined;
  for (const store of [plain, indexed, sqlite, sqliteIndexed]) if (store) await fill(store, count);
  const lgPlain = measures(context, 'langgraph') ? await langGraphStore(count, false) : undefined;
  const lgIndexed = measures(context, 'langgraph') ? await langGraphStore(count, true) : undefined;
  const floor = measures(context, 'floor') ? await floorVectors(count) : undefined;
  const filter = { kind: 'preference' };
  const check = (hits: number) => expectEqual('hits', hits, 10);
  const rows: Row[] = [];
  rows.push(
    await compareRow<number>(context, {
      workload: `store search: ${count} docs, filter, limit 10 (memory)`,
      unit: 'ms',
      runs: {
        weft: async () => (await plain!.search(['docs'], { filter, limit: 10 })).length,
        langgraph: async () => (await lgPlain!.search(['docs'], { filter, limit: 10 })).length,
        floor: async () => floor!.filter((entry) => entry.value.kind === 'preference').slice(0, 10).length,
      },
      check,
    }),
    await compareRow<number>(context, {
      workload: `store search: ${count} docs, vector query, limit 10 (memory)`,
      unit: 'ms',
      runs: {
        weft: async () => (await indexed!.search(['docs'], { query: QUERY, limit: 10 })).length,
        langgraph: async () => (await lgIndexed!.search(['docs'], { query: QUERY, limit: 10 })).length,
        floor: async () => {
          const [query] = await embeddings.embed([QUERY]);
          const scored = floor!.map((entry) => ({
            entry,
            score: cosineSimilarity(entry.vector, query ?? []),
          }));
          return scored.sort((a, b) => b.score - a.score).slice(0, 10).length;
        },
      },
      check,
    }),
    await compareRow<number>(context, {
      workload: `store search: ${count} docs, filter, limit 10 (SQLite)`,
      unit: 'ms',
      runs: { weft: async () => (await sqlite!.search(['docs'], { filter, limit: 10 })).length },
      check,
    }),
    await compareRow<number>(context, {
      workload: `store search: ${count} docs, vector query, limit 10 (SQLite)`,
      unit: 'ms',
      runs: { weft: async () => (await sqliteIndexed!.search(['docs'], { query: QUERY, limit: 10 })).length },
      check,
    }),
  );
  await sqlite?.close();
  await sqliteIndexed?.close();
  return rows;
}

export const storeSearchWorkload: Workload = { name: 'store-search', run };
