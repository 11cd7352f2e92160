/**
 * Reads an async stream to its end (a Runner's events, a graph's stream) and returns every item, in
 * order. Rejects with the stream's error.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Hi' })); // every event of the turn
 * ```
 */
export async function drain<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}
