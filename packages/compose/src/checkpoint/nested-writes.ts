import { START } from '../vocabulary/constants.js';
import type { Checkpointer } from './checkpointer.js';
import { chainLoopError, decodeBody } from './load.js';

/**
 * Every state write a nested graph's nodes made in its namespace, oldest first (its input excluded):
 * what a resumed subgraph hands its parent, so writes from before the pause are not lost.
 */
export async function collectNestedWrites(
  checkpointer: Checkpointer,
  threadId: string,
  ns: string,
): Promise<Array<readonly [string, unknown]>> {
  const records = await checkpointer.list(threadId, { ns });
  const latest = records[0];
  if (!latest) return [];
  const byId = new Map(records.map((r) => [r.id, r]));
  const chain = [];
  const seen = new Set<string>();
  for (
    let record = byId.get(latest.id);
    record;
    record = record.parentId ? byId.get(record.parentId) : undefined
  ) {
    if (seen.has(record.id)) throw chainLoopError(latest, record.id);
    seen.add(record.id);
    chain.push(record);
    if (record.source === 'input') break;
  }
  const writes: Array<readonly [string, unknown]> = [];
  for (let i = chain.length - 1; i >= 0; i--) {
    for (const [node, entries] of decodeBody(chain[i]!).writes) if (node !== START) writes.push(...entries);
  }
  return writes;
}
