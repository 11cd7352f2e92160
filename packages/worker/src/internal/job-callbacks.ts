import type { Callbacks, RunEvent } from '@weft/compose';

/** The worker's own event listener (publishing to the thread's stream) and a job's callbacks, as one. */
export function withJobCallbacks(
  onEvent: ((event: RunEvent) => void) | undefined,
  extra: Callbacks | undefined,
): Callbacks | undefined {
  const own = extra?.onEvent;
  const both =
    onEvent && own
      ? (event: RunEvent) => {
          onEvent(event);
          own(event);
        }
      : (onEvent ?? own);
  const callbacks: Callbacks = { ...extra, ...(both ? { onEvent: both } : {}) };
  return Object.values(callbacks).some((value) => value !== undefined) ? callbacks : undefined;
}
