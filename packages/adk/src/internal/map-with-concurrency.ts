/**
 * Runs `task` for every item with at most `concurrency` running at once; results keep the items' order.
 * Rejects with the first task failure (tasks already running are left to finish on their own).
 *
 * @example
 * ```ts
 * const urls = ['https://example.com/a', 'https://example.com/b'];
 * const pages = await mapWithConcurrency(urls, 4, async (url) => (await fetch(url)).text()); // in input order
 * ```
 */
export async function mapWithConcurrency<TItem, TResult>(
  items: readonly TItem[],
  concurrency: number,
  task: (item: TItem, index: number) => Promise<TResult>,
): Promise<TResult[]> {
  const results = new Array<TResult>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as TItem, index);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}
