import { WeftError } from '../errors/weft-error.js';
import { isPlainObject } from '../runnable/concat.js';
import { Command, isCommand } from '../vocabulary/command.js';
import type { Send } from '../vocabulary/send.js';
import { SubgraphWrites } from './subgraph-writes.js';

/**
 * Turns what a state-graph node returned as a list — updates and `Command`s, applied in order — into
 * the engine's own write: the `[key, value]` writes of every item in list order (so a reducer sees each
 * item, and a last-value key keeps the last item's value), with the `goto`s of every `Command`
 * concatenated. `null`/`undefined` items write nothing. `check` validates each update (the node's
 * `output` schema).
 *
 * @throws WeftError `INVALID_UPDATE` naming the node and the item when an item is neither an update
 *   object, a `Command`, nor nothing.
 */
export function listOutput(
  node: string,
  items: readonly unknown[],
  check: ((update: unknown) => unknown) | undefined,
): SubgraphWrites | Command {
  const writes: Array<readonly [string, unknown]> = [];
  const goto: Array<string | Send> = [];
  items.forEach((item, index) => {
    let update = item;
    if (isCommand(item)) {
      if (item.graph !== undefined) {
        throw new WeftError(
          'INVALID_UPDATE',
          `node "${node}" returned a list whose item ${index} is a Command for another graph; return a Command.PARENT on its own, not in a list`,
        );
      }
      goto.push(...(item.goto as ReadonlyArray<string | Send>));
      update = item.update;
    }
    if (update === undefined || update === null) return;
    if (!isPlainObject(update)) {
      throw new WeftError(
        'INVALID_UPDATE',
        `node "${node}" returned a list whose item ${index} is ${describe(update)}; each item must be a partial state object, a Command, or nothing`,
      );
    }
    const checked = (check ? check(update) : update) as Record<string, unknown>;
    for (const key in checked) writes.push([key, checked[key]]);
  });
  const update = new SubgraphWrites(writes, true);
  return goto.length === 0 ? update : new Command({ update, goto });
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object')
    return `an instance of ${(value as object).constructor?.name ?? 'an unknown class'}`;
  return `a ${typeof value}`;
}
