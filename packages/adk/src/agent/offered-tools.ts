import type { AnyTool } from '../tool/tool.js';

/**
 * The tools each model call of an agent was offered, by the id of the reply that call produced, kept
 * for the `tools` node that runs that reply's calls: a tool a `beforeModel` hook (or `wrapModel`) added
 * runs, one it removed does not. Only calls whose offer differs from the agent's own tools are
 * recorded (the common case costs nothing), and only the latest `capacity` of them (a reply whose
 * calls are never run, e.g. of a cancelled run, would otherwise be kept forever). The record lives in
 * the process: a run resumed in another process runs the agent's own tools only.
 *
 * @example
 * ```ts
 * const search = tool({
 *   name: 'search_tools',
 *   description: 'Finds more tools',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => [query],
 * });
 * const offered = new OfferedTools([search]);
 * offered.record('reply-1', [search]); // what the model call that wrote reply-1 was offered
 * offered.forReply('reply-1').get('search_tools'); // the tool its calls may run
 * ```
 */
export class OfferedTools {
  readonly #own: ReadonlyMap<string, AnyTool>;
  readonly #byReply = new Map<string, ReadonlyMap<string, AnyTool>>();

  constructor(
    own: readonly AnyTool[],
    private readonly capacity = 1024,
  ) {
    this.#own = new Map(own.map((t) => [t.name, t]));
  }

  /** The agent's own tools, by name. */
  get own(): ReadonlyMap<string, AnyTool> {
    return this.#own;
  }

  /** Records the tools offered for the call that produced the reply `replyId`. */
  record(replyId: string, tools: readonly AnyTool[]): void {
    if (sameTools(this.#own, tools)) {
      this.#byReply.delete(replyId);
      return;
    }
    this.#byReply.delete(replyId);
    this.#byReply.set(replyId, new Map(tools.map((t) => [t.name, t])));
    if (this.#byReply.size > this.capacity) {
      const oldest = this.#byReply.keys().next().value;
      if (oldest !== undefined) this.#byReply.delete(oldest);
    }
  }

  /** The tools that may run for the calls of reply `replyId`: those offered, or the agent's own. */
  forReply(replyId: string | undefined): ReadonlyMap<string, AnyTool> {
    return (replyId === undefined ? undefined : this.#byReply.get(replyId)) ?? this.#own;
  }
}

function sameTools(own: ReadonlyMap<string, AnyTool>, tools: readonly AnyTool[]): boolean {
  return tools.length === own.size && tools.every((t) => own.get(t.name) === t);
}
