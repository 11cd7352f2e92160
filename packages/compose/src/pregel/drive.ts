import { DagLoop } from './dag-loop.js';
import { dagPlanOf } from './dag-plan.js';
import { PregelLoop } from './loop.js';
import type { LoopHooks, LoopResult } from './loop-hooks.js';
import type { RunContext } from './run-context.js';
import type { Topology } from './topology.js';

/** The outcome of driving a graph, with the state writes its nodes made when asked for. */
export interface DriveResult extends LoopResult {
  readonly writes: ReadonlyArray<readonly [string, unknown]> | undefined;
}

/** Runs a graph's loop for its mode (Pregel supersteps or eager DAG) from an input. */
export async function drive(
  topology: Topology,
  run: RunContext,
  input: unknown,
  options: { readonly hooks?: LoopHooks; readonly recordWrites?: boolean } = {},
): Promise<DriveResult> {
  if (topology.mode === 'dag') {
    const dag = new DagLoop(topology, dagPlanOf(topology), run);
    const result = await dag.execute(input);
    return withWrites(result, options.recordWrites ? dag.stateWrites() : undefined);
  }
  const loop = new PregelLoop(topology, run, options);
  await loop.begin(input);
  const result = await loop.loop();
  return withWrites(result, loop.writes);
}

/**
 * A loop's result with the writes a nested run hands its parent, field by field: a spread plus a field
 * makes a new hidden class per run, and every later read of the result goes megamorphic.
 */
export function withWrites(result: LoopResult, writes: DriveResult['writes']): DriveResult {
  const { status, output, interrupts, steps } = result;
  return { status, output, interrupts, steps, writes };
}
