import type { AgentGraph } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';

/**
 * The compiled graphs of one template agent: one without a checkpointer, one per checkpointer (held
 * weakly), each built once — what `Agent.compile` needs.
 *
 * @example
 * ```ts
 * compile(options = {}) { return this.#graphs.get(options.checkpointer, (cp) => buildGraph(cp)); }
 * ```
 */
export class AgentGraphCache {
  #plain: AgentGraph | undefined;
  readonly #byCheckpointer = new WeakMap<Checkpointer, AgentGraph>();

  /** The graph for `checkpointer`, built on first use. */
  get(
    checkpointer: Checkpointer | undefined,
    build: (checkpointer?: Checkpointer) => AgentGraph,
  ): AgentGraph {
    if (!checkpointer) return (this.#plain ??= build());
    const cached = this.#byCheckpointer.get(checkpointer);
    if (cached) return cached;
    const graph = build(checkpointer);
    this.#byCheckpointer.set(checkpointer, graph);
    return graph;
  }
}
