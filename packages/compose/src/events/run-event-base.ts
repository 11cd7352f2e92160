/** Fields every run event carries. */
export interface RunEventBase {
  /** The run this event belongs to (a subgraph shares its parent's run id). */
  readonly runId: string;
  /** Wall-clock time in milliseconds since the epoch. */
  readonly ts: number;
  /**
   * Where it happened: node names from the outermost graph inwards (`[]` for the root graph itself,
   * `['research', 'search']` for node `search` inside subgraph node `research`).
   */
  readonly path: readonly string[];
  /**
   * Which nested run it came from, absent for the root graph's own events: the enclosing tasks (and
   * `runSubgraph` keys) from the outermost inwards, `/`-separated (`'/3:tools:0#call_1'`). Parallel
   * nested runs at one path (two agent tools called at once) share `path` and task ids, not `scope`.
   */
  readonly scope?: string;
}
