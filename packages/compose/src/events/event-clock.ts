/**
 * The clock of run events, counting its reads: a step that ran without awaiting anything after its last
 * node ended can stamp its `step-end` with that node's clock read instead of reading the clock again
 * (`Date.now()` costs ~60 ns on a VM clock; only synchronous engine work lies between the two reads).
 */
let reads = 0;
let last = 0;

/**
 * `Date.now()`, remembered as the last read (see {@link timeSince}).
 *
 * @example
 * ```ts
 * const ts = eventTime(); // the same number as Date.now() at that moment
 * ```
 */
export function eventTime(): number {
  reads++;
  last = Date.now();
  return last;
}

/**
 * A mark to pass to {@link timeSince} later: how many reads {@link eventTime} has made so far.
 *
 * @example
 * ```ts
 * const mark = clockMark();
 * eventTime();
 * timeSince(mark); // the read just made, not a new one
 * ```
 */
export function clockMark(): number {
  return reads;
}

/**
 * The time of the last {@link eventTime} read when one was made since `mark`, else a fresh read. The
 * caller vouches that nothing was awaited since that read (the remembered time is then still "now" to
 * within the synchronous work done since).
 *
 * @example
 * ```ts
 * const mark = clockMark();
 * const ended = timeSince(mark); // no read since the mark: reads the clock
 * ```
 */
export function timeSince(mark: number): number {
  return reads !== mark ? last : eventTime();
}
