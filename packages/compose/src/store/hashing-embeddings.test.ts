import { describe, expect, it } from 'vitest';
import { WeftError } from '../errors/weft-error.js';
import { cosineSimilarity } from './embeddings.js';
import { HashingEmbeddings } from './hashing-embeddings.js';

describe('HashingEmbeddings', () => {
  it('is deterministic, normalised and closer for texts sharing words', async () => {
    const embeddings = new HashingEmbeddings({ dimensions: 128 });
    const [tea, teaAgain, flights, empty] = await embeddings.embed([
      'I drink Green tea',
      'green TEA, please',
      'window seats on long flights',
      '!!!',
    ]);
    expect(tea).toEqual((await new HashingEmbeddings({ dimensions: 128 }).embed(['I drink Green tea']))[0]);
    expect(tea?.length).toBe(128);
    expect(Math.hypot(...(tea ?? []))).toBeCloseTo(1, 10);
    expect(cosineSimilarity(tea ?? [], teaAgain ?? [])).toBeGreaterThan(
      cosineSimilarity(tea ?? [], flights ?? []),
    );
    expect(empty?.every((value) => value === 0)).toBe(true);
    expect(cosineSimilarity(tea ?? [], empty ?? [])).toBe(0);
  });

  it('rejects a bad dimension count', () => {
    expect(() => new HashingEmbeddings({ dimensions: 0 })).toThrow(WeftError);
  });
});
