/**
 * ROUGE-1 F-measure between a candidate and a reference: the overlap of lowercased word unigrams
 * (letters and digits, any script), as Google ADK's response match score computes it.
 *
 * @example
 * ```ts
 * rouge1('The capital of France is Paris.', 'Paris is the capital of France'); // 1
 * ```
 */
export function rouge1(candidate: string, reference: string): number {
  const c = counts(candidate);
  const r = counts(reference);
  let overlap = 0;
  for (const [word, n] of c) overlap += Math.min(n, r.get(word) ?? 0);
  const cTotal = total(c);
  const rTotal = total(r);
  if (overlap === 0 || cTotal === 0 || rTotal === 0) return 0;
  const precision = overlap / cTotal;
  const recall = overlap / rTotal;
  return (2 * precision * recall) / (precision + recall);
}

function counts(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    map.set(word, (map.get(word) ?? 0) + 1);
  return map;
}

function total(map: Map<string, number>): number {
  let sum = 0;
  for (const n of map.values()) sum += n;
  return sum;
}
