/**
 * A list of `[key, value]` writes a state graph applies in order through its reducers, as if its nodes
 * had made them one by one: what a node that returned a list of updates and `Command`s wrote (`checked`:
 * an unknown key is an error, as for a single update; unchecked writes skip keys the state lacks). A state
 * subgraph used as a node no longer hands its parent its writes but one update (see `subgraphUpdate`).
 */
export class SubgraphWrites {
  constructor(
    readonly writes: ReadonlyArray<readonly [key: string, value: unknown]>,
    /** True for a node's own list of updates: every key must be a key of the state. */
    readonly checked = false,
  ) {}
}
