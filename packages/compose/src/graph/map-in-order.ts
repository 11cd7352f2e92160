/**
 * Calls `fn` on every item, at most `concurrency` at once, and returns the results in the items' order
 * (rejects with the first failure; `CompiledGraph.batch` runs its inputs this way).
 *
 * @example
 * ```ts
 * const lengths = await mapInOrder(['a', 'bb', 'ccc'], 2, async (text) => text.length); // [1, 2, 3]
 * ```
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
