import type { Send } from './send.js';

/** The `graph` of a {@link Command} a node inside a subgraph returns to update and route its parent. */
export const PARENT = '__parent__' as const;

/** What a {@link Command} carries. */
export interface CommandInit<
  TUpdate,
  TGoto extends string,
  TGraph extends string | undefined = string | undefined,
> {
  /**
   * Which graph the command is for: omitted for the graph the node is in; {@link Command.PARENT} for the
   * graph the node's subgraph is a node of (then `update` is written as that subgraph node's write,
   * through the parent's reducers, `goto` names the parent's nodes, and the subgraph stops).
   */
  readonly graph?: TGraph;
  /** A state update (state graphs) or the output value (dataflow graphs). */
  readonly update?: TUpdate;
  /** Where to go next, in addition to the node's static edges: node names and/or `Send`s. */
  readonly goto?: TGoto | Send<TGoto> | ReadonlyArray<TGoto | Send<TGoto>>;
  /** Resume value(s) for paused nodes: one value, or a map of interrupt id to value. */
  readonly resume?: unknown;
}

/**
 * Returned from a node to update the state and choose the next node(s) at once; passed to `invoke`
 * with `resume` to answer an interrupt.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ urgent: z.boolean(), seen: z.boolean().optional() }))
 *   .addNode('escalate', () => ({}))
 *   .addNode('reply', () => ({}));
 * graph.addNode('route', (state) => new Command({ update: { seen: true }, goto: state.urgent ? 'escalate' : 'reply' }));
 * ```
 */
export class Command<
  TUpdate = unknown,
  TGoto extends string = string,
  TGraph extends string | undefined = string | undefined,
> {
  /**
   * The `graph` that sends a command to the parent graph: `new Command({ graph: Command.PARENT, goto, update })`
   * returned by a node inside a subgraph stops the subgraph; the parent writes `update` as the subgraph
   * node's write and routes to `goto`. Type the parent's update and node names with the generics:
   * `new Command<ParentUpdate, ParentNode, typeof Command.PARENT>({ ... })`.
   *
   * @example
   * ```ts
   * const inner = new StateGraph(z.object({ owner: z.string().optional() }));
   * inner.addNode('handoff', () => new Command({ graph: Command.PARENT, goto: 'billing', update: { owner: 'billing' } }));
   * ```
   */
  static readonly PARENT = PARENT;
  /** Marker for recognising a Command across package copies. */
  readonly kind = 'command' as const;
  /** The graph the command is for (`undefined`: the node's own graph; {@link Command.PARENT}). */
  // NoInfer: a node's contextual return type (which allows a parent command) must not decide `graph`.
  readonly graph: NoInfer<TGraph>;
  readonly update: TUpdate | undefined;
  readonly goto: ReadonlyArray<TGoto | Send<TGoto>>;
  readonly resume: unknown;
  /** True when a resume value was given (even `undefined`). */
  readonly hasResume: boolean;

  constructor(init: CommandInit<TUpdate, TGoto, TGraph>) {
    this.graph = init.graph as TGraph;
    this.update = init.update;
    const goto = init.goto;
    this.goto = goto === undefined ? [] : Array.isArray(goto) ? goto : [goto as TGoto | Send<TGoto>];
    this.hasResume = 'resume' in init;
    this.resume = init.resume;
  }
}

/**
 * What a node inside a subgraph may return to command its parent graph: any `Command` whose `graph` is
 * {@link Command.PARENT} (the parent's update and node names are checked where the parent types them:
 * `new Command<ParentUpdate, ParentNode, typeof Command.PARENT>(...)`). Only `kind` and `graph` are
 * listed, so a node's own `Command` infers its update and goto from its own graph as before.
 */
export interface ParentBoundCommand {
  readonly kind: 'command';
  readonly graph: typeof PARENT;
}

/** True when `value` is a {@link Command}. */
export function isCommand(value: unknown): value is Command {
  return (
    value instanceof Command ||
    (typeof value === 'object' && value !== null && (value as Command).kind === 'command')
  );
}
