import { useEffect, useRef, useState } from 'react';
import { bufferTime, filter, map, tap } from 'rxjs';
import type { RunInfo, WireEvent } from '../../../src/shared/wire.ts';
import { runMessages } from '../api.ts';

/** How long events (streamed tokens, mostly) are gathered before the page renders them at once. */
const renderEveryMs = 30;

/**
 * The events of one run, live: the backlog then new events over SSE, rendered in batches (every
 * {@link renderEveryMs} ms, so a fast token stream does not re-render per token). `onEnd` is called once
 * the run has ended (with its final info), e.g. to refresh the thread's history. Following another run
 * unsubscribes from the previous one (its connection closes).
 */
export function useRunEvents(runId: string | undefined, onEnd: (info: RunInfo | undefined) => void) {
  const [events, setEvents] = useState<WireEvent[]>([]);
  const [final, setFinal] = useState<RunInfo | undefined>();
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  useEffect(() => {
    setEvents([]);
    setFinal(undefined);
    if (!runId) return;
    let ended: RunInfo | undefined;
    const subscription = runMessages(runId)
      .pipe(
        tap((message) => {
          if ('end' in message) ended = message.end;
        }),
        filter((message) => 'event' in message),
        map((message) => message.event),
        // The last batch is flushed when the stream completes, before `complete` below.
        bufferTime(renderEveryMs),
        filter((batch) => batch.length > 0),
      )
      .subscribe({
        next: (batch) => setEvents((old) => [...old, ...batch]),
        complete: () => {
          setFinal(ended);
          onEndRef.current(ended);
        },
      });
    return () => subscription.unsubscribe();
  }, [runId]);
  return { events, final };
}
