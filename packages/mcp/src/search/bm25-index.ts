/** Splits text into lowercase search terms: words of letters and digits, camelCase and snake_case split, plurals folded. */
export function terms(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1)
    .map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
}

interface Document {
  readonly id: string;
  readonly counts: ReadonlyMap<string, number>;
  readonly length: number;
}

/**
 * A BM25 ranking over short documents (Okapi BM25, k1 = 1.2, b = 0.75), built once: `search` scores every
 * document holding a query term and returns the best ids first (ties keep insertion order).
 */
export class Bm25Index {
  readonly #documents: Document[] = [];
  readonly #documentFrequency = new Map<string, number>();
  readonly #averageLength: number;

  constructor(documents: ReadonlyArray<{ readonly id: string; readonly text: string }>) {
    let total = 0;
    for (const { id, text } of documents) {
      const words = terms(text);
      const counts = new Map<string, number>();
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
      for (const word of counts.keys())
        this.#documentFrequency.set(word, (this.#documentFrequency.get(word) ?? 0) + 1);
      this.#documents.push({ id, counts, length: words.length });
      total += words.length;
    }
    this.#averageLength = this.#documents.length === 0 ? 1 : total / this.#documents.length || 1;
  }

  /** The ids of the `limit` best matches of `query` (only documents sharing a term with it). */
  search(query: string, limit: number): string[] {
    const wanted = [...new Set(terms(query))];
    const n = this.#documents.length;
    const scored: Array<{ id: string; score: number; order: number }> = [];
    this.#documents.forEach((document, order) => {
      let score = 0;
      for (const word of wanted) {
        const frequency = document.counts.get(word);
        if (!frequency) continue;
        const containing = this.#documentFrequency.get(word) ?? 0;
        const idf = Math.log(1 + (n - containing + 0.5) / (containing + 0.5));
        const norm = 1.2 * (1 - 0.75 + (0.75 * document.length) / this.#averageLength);
        score += (idf * frequency * 2.2) / (frequency + norm);
      }
      if (score > 0) scored.push({ id: document.id, score, order });
    });
    scored.sort((a, b) => b.score - a.score || a.order - b.order);
    return scored.slice(0, limit).map((entry) => entry.id);
  }
}
