import { isPromiseLike } from '../runnable/runnable.js';
import { isCommand } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import type { LoopView, StepRecord } from './loop-hooks.js';
import { emptyRouting, type Finished, planNext } from './plan.js';
import { dataflowFinished } from './step-writes.js';
import type { CompiledNode } from './topology.js';

/** A change `updateState` makes (see {@link applyExternal}). */
export interface ExternalChange {
  /** Tasks of the paused step that finished: their node, its name and their output. */
  readonly finished: ReadonlyArray<{
    readonly node: CompiledNode;
    readonly name: string;
    readonly output: unknown;
  }>;
  /** The values given, or `undefined` for none. */
  readonly update: unknown;
  /** The node the update is written as, `end` to finish the thread, or `undefined` to keep the tasks. */
  readonly as: CompiledNode | 'end' | undefined;
}

/**
 * Applies a change from outside a run (time travel's `updateState`) to a loop restored from a checkpoint:
 * first the outputs of tasks that already finished in the paused step (when the change replaces the
 * step), then `update` as if `as` wrote it. With a node, the next tasks are routed from the finished tasks
 * and that node; with `end`, nothing runs next; otherwise the planned tasks stay.
 */
export async function applyExternal(loop: LoopView, change: ExternalChange): Promise<StepRecord> {
  const { topology } = loop;
  const name = change.as === 'end' ? END : (change.as?.name ?? START);
  const items: Array<{ node: CompiledNode | undefined; name: string; output: unknown }> = [
    ...change.finished,
  ];
  if (change.update !== undefined || change.as !== undefined)
    items.push({ node: change.as === 'end' ? undefined : change.as, name, output: change.update });
  const routed: Finished[] = [];
  const writes: Array<readonly [string, unknown]> = [];
  const changed = new Set<string>();
  // One application per item: the update lands on top of the finished writes, as a later step would.
  for (const item of items) {
    let finished: Finished = dataflowFinished(item.node, item.output);
    if (topology.state) {
      const applied = loop.applyState([item.name], [item.output]);
      for (const key of applied.changed) changed.add(key);
      finished = { node: item.node, output: applied.updates[0], goto: applied.gotos[0] };
    }
    routed.push(finished);
    const raw = isCommand(item.output) ? item.output.update : item.output;
    if (raw !== undefined && raw !== null) writes.push([item.name, raw]);
  }
  if (change.as === 'end') {
    loop.restore({ tasks: [], routing: emptyRouting() });
  } else if (change.as) {
    const planned = planNext(
      { topology, routing: loop.routing, routerInput: loop.routerInput, step: loop.prefix() },
      routed,
    );
    loop.restore({ tasks: isPromiseLike(planned) ? await planned : planned });
  }
  return { writes, changed: [...changed] };
}
