import { useEffect, useRef, useState } from 'react';
import type { RunInfo, WireEvent } from '../../../src/shared/wire.ts';
import { followRun } from '../api.ts';

/**
 * The events of one run, live: the backlog then new events over SSE. `onEnd` is called once the run
 * has ended (with its final info), e.g. to refresh the thread's history.
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
    let pending: WireEvent[] = [];
    let frame: number | undefined;
    const flush = () => {
      frame = undefined;
      const batch = pending;
      pending = [];
      setEvents((old) => [...old, ...batch]);
    };
    const stop = followRun(
      runId,
      (event) => {
        pending.push(event);
        frame ??= window.setTimeout(flush, 30);
      },
      (ended) => {
        if (frame !== undefined) window.clearTimeout(frame);
        flush();
        setFinal(ended);
        onEndRef.current(ended);
      },
    );
    return () => {
      if (frame !== undefined) window.clearTimeout(frame);
      stop();
    };
  }, [runId]);
  return { events, final };
}
