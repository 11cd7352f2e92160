/**
 * Reads an async stream to its end (a Runner's events, a graph's stream) and returns every item, in
 * order. Rejects with the stream's error.
 *
 * @example
 * ```ts
 * const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Hi' }));
 * ```
 */
export async function drain<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}
