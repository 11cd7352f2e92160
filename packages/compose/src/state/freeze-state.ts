/**
 * State protection in development: the state handed to nodes is deep-frozen (immer's `freeze` for Maps and Sets), so an
 * in-place change (`state.items.push(2)`) throws at the line that made it instead of changing the run's
 * memory but not its checkpoints. Freezing stops at values already frozen, so each step pays only for
 * the values that are new since the last one; in production it is off and costs one boolean test.
 */
import { freeze } from 'immer';
import { StateMutationError } from '../errors/state-mutation-error.js';

/**
 * Whether state is frozen when the `freezeState` compile option is not given: everywhere except
 * `NODE_ENV=production`.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ text: z.string() }))
 *   .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
 *   .addEdge(START, 'upper')
 *   .addEdge('upper', END);
 * const app = graph.compile({ freezeState: defaultFreezeState() }); // what compile() does anyway
 * ```
 */
export function defaultFreezeState(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.NODE_ENV !== 'production';
}

/**
 * Deep-freezes plain objects, arrays, Maps and Sets (not class instances, dates or byte arrays) in place
 * and returns the value; already-frozen parts are skipped. Arrays and plain objects are walked here (a
 * third of the time of immer's generic `freeze`, measured on a 200-message list); Maps and Sets go to
 * immer's `freeze`, which also makes their `set`/`add`/`delete`/`clear` throw.
 *
 * @example
 * ```ts
 * const state = freezeState({ items: [1] });
 * state.items.push(2); // TypeError: Cannot add property 1, object is not extensible
 * ```
 */
export function freezeState<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) freezeObject(value);
  return value;
}

const OBJECT_PROTOTYPE = Object.prototype;

function freezeObject(value: object): void {
  if (Array.isArray(value)) {
    Object.freeze(value);
    for (let index = 0; index < value.length; index++) freezeState(value[index]);
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === OBJECT_PROTOTYPE || prototype === null) {
    Object.freeze(value);
    for (const key in value) freezeState((value as Record<string, unknown>)[key]);
  } else if (value instanceof Map || value instanceof Set) {
    freeze(value, true);
  }
}

/** What V8 and immer say when frozen values are changed. */
const FROZEN_CHANGE =
  /^Cannot (?:assign to read only property|add property|delete property|define property)|object is not extensible|\[Immer\] (?:This object has been frozen|minified error nr: 2\b)/;
const PROPERTY = /property '?([^' ,]+)'?/;

/**
 * Turns the error of a change to a frozen value into a {@link StateMutationError} naming the node, and
 * the key when the change was an assignment to a top-level state key; `undefined` for other errors.
 *
 * @example
 * ```ts
 * const keys = new Set(['count']); // the graph's state keys
 * asStateMutation(new TypeError("Cannot assign to read only property 'count' of object '#<Object>'"), 'inc', keys);
 * // StateMutationError { node: 'inc', key: 'count' }
 * ```
 */
export function asStateMutation(
  error: unknown,
  node: string,
  keys: ReadonlySet<string> | undefined,
): StateMutationError | undefined {
  if (!(error instanceof Error) || !FROZEN_CHANGE.test(error.message)) return undefined;
  if (!(error instanceof TypeError) && !error.message.startsWith('[Immer]')) return undefined;
  const property = PROPERTY.exec(error.message)?.[1];
  const key = property !== undefined && keys?.has(property) ? property : undefined;
  return new StateMutationError({ node, key, cause: error });
}
