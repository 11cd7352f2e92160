/**
 * Options of {@link Embeddings.embed}.
 *
 * @example
 * ```ts
 * const embeddings: Embeddings = new HashingEmbeddings({ dimensions: 128 });
 * const vectors = await embeddings.embed(['hello'], { signal: AbortSignal.timeout(5_000) }); // one vector of 128
 * ```
 */
export interface EmbedOptions {
  readonly signal?: AbortSignal;
}

/**
 * Turns texts into vectors for similarity search. Implementations: `HashingEmbeddings` (local,
 * deterministic) here, `OpenAIEmbeddings` in `@weft/adk` (any OpenAI-compatible endpoint).
 *
 * @example
 * ```ts
 * const embeddings: Embeddings = new HashingEmbeddings({ dimensions: 128 });
 * const [vector] = await embeddings.embed(['I like tea']);
 * ```
 */
export interface Embeddings {
  /** Length of every vector, when known up front. */
  readonly dimensions?: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
}

/**
 * Cosine similarity of two vectors (0 when either is all zeros; vectors of different lengths compare
 * over the shorter).
 *
 * @example
 * ```ts
 * cosineSimilarity([1, 0], [1, 1]); // ≈ 0.707
 * ```
 */
export function cosineSimilarity(left: ArrayLike<number>, right: ArrayLike<number>): number {
  const length = Math.min(left.length, right.length);
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < length; index++) {
    const a = left[index] as number;
    const b = right[index] as number;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  if (leftNorm === 0 || rightNorm === 0) return 0;
  return dot / Math.sqrt(leftNorm * rightNorm);
}
