import { Observable } from 'rxjs';

/**
 * A run stream (or any async iterable) as an rxjs `Observable`. Give a function that starts the stream
 * to get a cold observable: each subscription starts its own run. Values are pushed as the stream yields
 * them; the stream's end completes the observable and its error errors it. Unsubscribing before the end
 * stops reading, which cancels a run stream (`stream()` aborts the run when its reader stops) and waits
 * for nothing. rxjs has no backpressure: the stream is read as fast as subscribers take values.
 *
 * @example
 * ```ts
 * import { bufferTime, filter } from 'rxjs';
 * import { toObservable } from '@weft/compose/rx';
 *
 * const graph = new StateGraph(z.object({ text: z.string() }))
 *   .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
 *   .addEdge(START, 'upper')
 *   .addEdge('upper', END);
 * const app = graph.compile();
 * toObservable(() => app.stream({ text: 'hi' }, { mode: 'updates' }))
 *   .pipe(bufferTime(50), filter((parts) => parts.length > 0))
 *   .subscribe((parts) => console.log(parts)); // [{ upper: { text: 'HI' } }]
 * ```
 */
export function toObservable<T>(source: AsyncIterable<T> | (() => AsyncIterable<T>)): Observable<T> {
  return new Observable<T>((subscriber) => {
    const iterable = typeof source === 'function' ? source() : source;
    const iterator = iterable[Symbol.asyncIterator]();
    let ended = false;
    const read = async (): Promise<void> => {
      for (;;) {
        const next = await iterator.next();
        if (subscriber.closed) return;
        if (next.done) {
          ended = true;
          subscriber.complete();
          return;
        }
        subscriber.next(next.value);
      }
    };
    read().catch((error: unknown) => {
      ended = true;
      if (!subscriber.closed) subscriber.error(error);
    });
    return () => {
      if (ended) return;
      ended = true;
      // Stops the stream (a run stream aborts its run); its end is not awaited by the unsubscriber.
      iterator.return?.()?.catch(() => undefined);
    };
  });
}
