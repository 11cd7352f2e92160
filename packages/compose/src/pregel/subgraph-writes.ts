/**
 * The output of a state subgraph used as a node of a state graph: the writes its nodes made, in order,
 * so the parent applies them through its own reducers as if its nodes had made them (appends are not
 * doubled, unchanged keys are not rewritten).
 */
export class SubgraphWrites {
  constructor(readonly writes: ReadonlyArray<readonly [key: string, value: unknown]>) {}
}
