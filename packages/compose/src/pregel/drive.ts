import { DagLoop } from './dag-loop.js';
import { dagPlanOf } from './dag-plan.js';
import { PregelLoop } from './loop.js';
import type { LoopHooks, LoopResult } from './loop-hooks.js';
import type { RunContext } from './run-context.js';
import type { Topology } from './topology.js';

/**
 * The outcome of driving a graph, with the state writes its nodes made when asked for, and, for a
 * durable run, the id of its latest checkpoint (`undefined` for a plain one).
 */
export interface DriveResult extends LoopResult {
  readonly writes: ReadonlyArray<readonly [string, unknown]> | undefined;
  readonly checkpointId: string | undefined;
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
 * A loop's result with the writes a nested run hands its parent and, for a durable run, its latest
 * checkpoint: field by field, at this one site for plain and durable runs alike (a spread plus a field
 * made a new hidden class per run, and every later read of the result went megamorphic).
 */
export function withWrites(
  result: LoopResult,
  writes: DriveResult['writes'],
  checkpointId?: string,
): DriveResult {
  const { status, output, interrupts, steps } = result;
  return { status, output, interrupts, steps, writes, checkpointId };
}
