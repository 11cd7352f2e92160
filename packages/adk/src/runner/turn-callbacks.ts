import type { Callbacks } from '@weft/compose';
import type { SessionKey } from '../session/session.js';

/**
 * Callbacks a Runner gives every turn's run (tracing registered once): an object, or a function of the
 * turn — its session and its agent — called at the start of each turn and resume.
 *
 * @example
 * ```ts
 * const log: RunnerCallbacks = (turn) => ({ onEvent: (event) => console.log(turn.sessionId, event.type) });
 * ```
 */
export type RunnerCallbacks = Callbacks | ((turn: TurnInfo) => Callbacks);

/**
 * Which turn a {@link RunnerCallbacks} function is asked for.
 *
 * @example
 * ```ts
 * const turn: TurnInfo = { appName: 'shop', userId: 'u1', sessionId: 's1', agentName: 'clerk' };
 * ```
 */
export interface TurnInfo extends SessionKey {
  readonly agentName: string;
}

type Hook = keyof Callbacks;
const hooks: readonly Hook[] = [
  'onEvent',
  'onStart',
  'onEnd',
  'onError',
  'onStartWithStreamInput',
  'onEndWithStreamOutput',
];

/**
 * The Runner's callbacks for one turn and the call's own, as one `Callbacks` (each hook calls the
 * Runner's first); `undefined` when neither sets a hook, so an unused subscriber costs the run nothing.
 */
export function turnCallbacks(
  registered: RunnerCallbacks | undefined,
  turn: TurnInfo,
  perCall: Callbacks | undefined,
): Callbacks | undefined {
  const own = typeof registered === 'function' ? registered(turn) : registered;
  const sets = [own, perCall].filter((c): c is Callbacks => c !== undefined && hooks.some((h) => c[h]));
  if (sets.length <= 1) return sets[0];
  const [first, second] = sets as [Callbacks, Callbacks];
  const combined: Record<string, (...args: never[]) => void> = {};
  for (const hook of hooks) {
    const a = first[hook] as ((...args: never[]) => void) | undefined;
    const b = second[hook] as ((...args: never[]) => void) | undefined;
    if (a && b)
      combined[hook] = (...args) => {
        try {
          a(...args);
        } finally {
          b(...args);
        }
      };
    else if (a ?? b) combined[hook] = (a ?? b) as (...args: never[]) => void;
  }
  return combined as Callbacks;
}
