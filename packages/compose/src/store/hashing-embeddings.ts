import { WeftError } from '../errors/weft-error.js';
import type { Embeddings } from './embeddings.js';

/**
 * Options of {@link HashingEmbeddings}.
 *
 * @example
 * ```ts
 * const options: HashingEmbeddingsOptions = { dimensions: 512 };
 * ```
 */
export interface HashingEmbeddingsOptions {
  /** Vector length (default 256). */
  readonly dimensions?: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A deterministic local embedding for tests and offline demos: a hashed bag of words (lower-cased
 * words and their 4-letter stems, FNV-1a into `dimensions` signed buckets, L2-normalised). Texts that
 * share words are close; it knows no synonyms. No network, no model, same vectors on every machine.
 *
 * @example
 * ```ts
 * const store = new MemoryStore({ index: { embeddings: new HashingEmbeddings(), fields: ['text'] } });
 * ```
 */
export class HashingEmbeddings implements Embeddings {
  readonly dimensions: number;

  /** @throws WeftError `INVALID_ARGUMENT` when `dimensions` is not a positive integer. */
  constructor(options: HashingEmbeddingsOptions = {}) {
    const dimensions = options.dimensions ?? 256;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `HashingEmbeddings: dimensions must be a positive integer, got ${dimensions}`,
      );
    }
    this.dimensions = dimensions;
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => this.#embedOne(text));
  }

  #embedOne(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const match of text.toLowerCase().matchAll(WORD)) {
      const word = match[0];
      this.#add(vector, word, 1);
      if (word.length > 4) this.#add(vector, `~${word.slice(0, 4)}`, 0.5);
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    if (norm === 0) return vector;
    const scale = 1 / Math.sqrt(norm);
    return vector.map((value) => value * scale);
  }

  #add(vector: number[], token: string, weight: number): void {
    const hash = fnv1a(token);
    const bucket = hash % this.dimensions;
    const sign = (hash >>> 31) & 1 ? -1 : 1;
    vector[bucket] = (vector[bucket] as number) + sign * weight;
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
