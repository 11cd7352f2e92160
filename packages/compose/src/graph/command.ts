import type { Send } from './send.js';

/** What a {@link Command} carries. */
export interface CommandInit<TUpdate, TGoto extends string> {
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
 * graph.addNode('route', (state) => new Command({ update: { seen: true }, goto: state.urgent ? 'escalate' : 'reply' }));
 * ```
 */
export class Command<TUpdate = unknown, TGoto extends string = string> {
  /** Marker for recognising a Command across package copies. */
  readonly kind = 'command' as const;
  readonly update: TUpdate | undefined;
  readonly goto: ReadonlyArray<TGoto | Send<TGoto>>;
  readonly resume: unknown;
  /** True when a resume value was given (even `undefined`). */
  readonly hasResume: boolean;

  constructor(init: CommandInit<TUpdate, TGoto>) {
    this.update = init.update;
    const goto = init.goto;
    this.goto = goto === undefined ? [] : Array.isArray(goto) ? goto : [goto as TGoto | Send<TGoto>];
    this.hasResume = 'resume' in init;
    this.resume = init.resume;
  }
}

/** True when `value` is a {@link Command}. */
export function isCommand(value: unknown): value is Command {
  return (
    value instanceof Command ||
    (typeof value === 'object' && value !== null && (value as Command).kind === 'command')
  );
}
