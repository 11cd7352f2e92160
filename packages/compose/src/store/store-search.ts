import type { JsonValue } from '../checkpoint/checkpointer.js';
import { WeftError } from '../errors/weft-error.js';
import { cosineSimilarity } from './embeddings.js';
import type {
  StoreIndexConfig,
  StoreItem,
  StorePutOptions,
  StoreSearchItem,
  StoreSearchOptions,
  StoreValue,
} from './store.js';
import { checkFilter, matchesFilter } from './store-filter.js';

/**
 * A stored document with the vectors of its indexed fields, as a store hands it to {@link rankItems}.
 *
 * @example
 * ```ts
 * const now = new Date();
 * const item: StoreItem = { namespace: ['memories', 'u1'], key: 'tea', value: { text: 'I like tea' }, createdAt: now, updatedAt: now };
 * const candidate: StoreCandidate = { item, vectors: [[0.1, 0.9]] }; // one vector per indexed field
 * ```
 */
export interface StoreCandidate {
  readonly item: StoreItem;
  readonly vectors: readonly ArrayLike<number>[];
  /**
   * The document's similarity to the query when the store computed it itself (a database's vector
   * index): used instead of scoring `vectors`.
   */
  readonly score?: number;
}

/**
 * The texts to embed for a document: each path of `fields` (`a.b`, `list[*]`, `list[0]`, `$` for the
 * whole document as JSON); strings are taken as they are, other values as JSON.
 *
 * @example
 * ```ts
 * textsAtPaths({ text: 'hi', tags: ['a', 'b'] }, ['text', 'tags[*]']); // ['hi', 'a', 'b']
 * ```
 */
export function textsAtPaths(value: StoreValue, fields: readonly string[]): string[] {
  const texts: string[] = [];
  for (const field of fields) {
    if (field === '$') {
      texts.push(JSON.stringify(value));
      continue;
    }
    let current: (JsonValue | undefined)[] = [value as JsonValue];
    for (const part of field.split('.')) current = current.flatMap((node) => step(node, part));
    for (const node of current) {
      if (node === undefined || node === null) continue;
      texts.push(typeof node === 'string' ? node : JSON.stringify(node));
    }
  }
  return texts;
}

function step(node: JsonValue | undefined, part: string): (JsonValue | undefined)[] {
  const match = /^([^[\]]*)\[(\*|\d+)\]$/.exec(part);
  const name = match ? (match[1] as string) : part;
  let next: JsonValue | undefined = node;
  if (name !== '') {
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return [];
    next = Object.hasOwn(next, name) ? next[name] : undefined;
  }
  if (!match) return [next];
  if (!Array.isArray(next)) return [];
  return match[2] === '*' ? next : [next[Number(match[2])]];
}

/**
 * Embeds the indexed fields of a document for `put`: the store's `index.fields` (or `options.index`),
 * nothing when the store has no index or `options.index` is `false`.
 *
 * @example
 * ```ts
 * const index: StoreIndexConfig = { embeddings: new HashingEmbeddings({ dimensions: 8 }), fields: ['text'] };
 * await embedDocument(index, { text: 'I like tea', mood: 'calm' }, undefined); // [[…8 numbers]]: only `text`
 * await embedDocument(index, { text: 'I like tea' }, { index: false }); // []: not indexed
 * ```
 */
export async function embedDocument(
  index: StoreIndexConfig | undefined,
  value: StoreValue,
  options: StorePutOptions | undefined,
): Promise<number[][]> {
  if (!index || options?.index === false) return [];
  const texts = textsAtPaths(value, options?.index ?? index.fields ?? ['$']);
  if (texts.length === 0) return [];
  return index.embeddings.embed(texts);
}

/**
 * Checks `search` options and embeds the query when the store has an index and a query was given.
 *
 * @throws WeftError `INVALID_ARGUMENT` for a bad `limit`/`offset` or filter operator.
 * @example
 * ```ts
 * const index: StoreIndexConfig = { embeddings: new HashingEmbeddings({ dimensions: 8 }), fields: ['text'] };
 * const queryVector = await prepareSearch(index, { query: 'tea', limit: 5 }); // the query's vector
 * await prepareSearch(undefined, { query: 'tea' }); // undefined: no index, so no ranking
 * ```
 */
export async function prepareSearch(
  index: StoreIndexConfig | undefined,
  options: StoreSearchOptions,
): Promise<number[] | undefined> {
  for (const name of ['limit', 'offset'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `store.search: ${name} must be a non-negative integer, got ${value}`,
      );
    }
  }
  checkFilter(options.filter);
  if (!index || options.query === undefined || options.query === '') return undefined;
  const [vector] = await index.embeddings.embed([options.query]);
  return vector;
}

/**
 * Filters, ranks and pages candidates the same way in every store: with a query vector, by the best
 * cosine similarity among a document's vectors (unindexed documents last); otherwise most recently
 * updated first (then by namespace and key).
 *
 * @example
 * ```ts
 * const at = new Date();
 * const doc = (key: string, value: StoreValue) => ({ namespace: ['notes'], key, value, createdAt: at, updatedAt: at });
 * const hits = rankItems(
 *   [
 *     { item: doc('cats', { text: 'cats purr' }), vectors: [[1, 0]] },
 *     { item: doc('dogs', { text: 'dogs bark' }), vectors: [[0, 1]] },
 *   ],
 *   { limit: 1 },
 *   [0.9, 0.1],
 * );
 * hits.map((hit) => hit.key); // ['cats']
 * ```
 */
export function rankItems(
  candidates: Iterable<StoreCandidate>,
  options: StoreSearchOptions,
  queryVector: readonly number[] | undefined,
): StoreSearchItem[] {
  const scored: { item: StoreItem; score: number | undefined }[] = [];
  for (const candidate of candidates) {
    if (!matchesFilter(candidate.item.value, options.filter)) continue;
    scored.push({ item: candidate.item, score: queryVector ? bestScore(candidate, queryVector) : undefined });
  }
  scored.sort((left, right) => {
    if (queryVector) {
      const byScore = (right.score ?? Number.NEGATIVE_INFINITY) - (left.score ?? Number.NEGATIVE_INFINITY);
      if (byScore !== 0 && !Number.isNaN(byScore)) return byScore;
    }
    return compareRecency(left.item, right.item);
  });
  const offset = options.offset ?? 0;
  const page = scored.slice(offset, offset + (options.limit ?? 10));
  return page.map(({ item, score }) => (score === undefined ? item : { ...item, score }));
}

function bestScore(candidate: StoreCandidate, query: readonly number[]): number | undefined {
  if (candidate.score !== undefined) return candidate.score;
  let best: number | undefined;
  for (const vector of candidate.vectors) {
    const score = cosineSimilarity(vector, query);
    if (best === undefined || score > best) best = score;
  }
  return best;
}

function compareRecency(left: StoreItem, right: StoreItem): number {
  const byTime = right.updatedAt.getTime() - left.updatedAt.getTime();
  if (byTime !== 0) return byTime;
  const leftNs = left.namespace.join('.');
  const rightNs = right.namespace.join('.');
  if (leftNs !== rightNs) return leftNs < rightNs ? -1 : 1;
  return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
}

/**
 * Namespaces for `list`: deduplicated, cut to `maxDepth`, sorted, paged (default limit 100).
 *
 * @example
 * ```ts
 * pageNamespaces([['users', 'u1', 'notes'], ['users', 'u2'], ['users', 'u1']], { maxDepth: 2 });
 * // [['users', 'u1'], ['users', 'u2']]
 * ```
 */
export function pageNamespaces(
  namespaces: Iterable<readonly string[]>,
  options: { readonly maxDepth?: number; readonly limit?: number; readonly offset?: number } = {},
): string[][] {
  const seen = new Map<string, string[]>();
  for (const namespace of namespaces) {
    const cut = options.maxDepth === undefined ? [...namespace] : namespace.slice(0, options.maxDepth);
    seen.set(cut.join('\u0000'), cut);
  }
  const sorted = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ns]) => ns);
  const offset = options.offset ?? 0;
  return sorted.slice(offset, offset + (options.limit ?? 100));
}
