import { WeftError } from '../errors/weft-error.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { END } from '../vocabulary/constants.js';
import { isSend } from '../vocabulary/send.js';
import { type CompiledBranch, END_INDEX, type Topology } from './topology.js';

/** Evaluates a router in DAG mode and adds its chosen targets (synchronous routers only; no Sends). */
export function addRouted(
  topology: Topology,
  branch: CompiledBranch,
  input: unknown,
  chosen: Set<number>,
): void {
  const result = (branch.router as (value: unknown) => unknown)(input);
  if (isPromiseLike(result)) {
    throw new WeftError(
      'INVALID_UPDATE',
      `the router of "${branch.from}" is asynchronous, which DAG mode does not support`,
    );
  }
  for (const target of Array.isArray(result) ? result : [result]) {
    if (isSend(target)) {
      throw new WeftError(
        'INVALID_UPDATE',
        `the router of "${branch.from}" returned a Send, which DAG mode does not support; use mode 'pregel' for map-reduce`,
      );
    }
    if (target === END) {
      chosen.add(END_INDEX);
      continue;
    }
    const node = typeof target === 'string' ? topology.byName.get(target) : undefined;
    if (!node || (branch.targets && !branch.targets.has(target as string))) {
      throw new WeftError(
        'INVALID_UPDATE',
        `the router of "${branch.from}" returned ${JSON.stringify(target)}, which is not one of its targets`,
      );
    }
    chosen.add(node.index);
  }
}
