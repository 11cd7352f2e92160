/**
 * A list of `[key, value]` writes a state graph applies in order through its reducers, as if its nodes
 * had made them one by one. Two sources: a state subgraph used as a node (the writes its nodes made, so
 * appends are not doubled and unchanged keys are not rewritten; keys the parent lacks are skipped), and
 * a node that returned a list of updates and `Command`s (`checked`: an unknown key is an error, as for
 * a single update).
 */
export class SubgraphWrites {
  constructor(
    readonly writes: ReadonlyArray<readonly [key: string, value: unknown]>,
    /** True for a node's own list of updates: every key must be a key of the state. */
    readonly checked = false,
  ) {}
}
