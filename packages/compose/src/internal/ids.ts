let lastMs = -1;
let counter = 0;
/** The id text of `lastMs`: its 9 base-36 digits and a random part drawn once per millisecond. */
let msText = '';
let msRandom = '';
const random = (): string =>
  Math.floor(Math.random() * 2 ** 32)
    .toString(36)
    .padStart(7, '0');
const prefix = random();

/**
 * A time-sortable unique id: 9 base-36 chars of milliseconds, a 5-char counter within the
 * millisecond, then 14 random characters: 7 drawn once per process and 7 once per millisecond
 * (lexicographic order = creation order within a process). The per-millisecond parts are built once
 * per millisecond, so an id costs about a tenth of building every part each time. `now` is a clock read
 * the caller already made (`Date.now()`), so one read can serve an id and a timestamp.
 */
export function sortableId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
    msText = `${now.toString(36).padStart(9, '0')}-`;
    msRandom = `-${prefix}${random()}`;
  } else counter++;
  return `${msText}${counter.toString(36).padStart(5, '0')}${msRandom}`;
}

let runCounter = 0;

/** A cheap unique run id (process prefix + counter). */
export function runId(): string {
  runCounter++;
  return `run-${prefix}-${runCounter.toString(36)}`;
}

let isoMs = -1;
let isoText = '';

/**
 * `new Date(now).toISOString()`, built once per millisecond (formatting a date costs about 0.5 µs); `now`
 * is a clock read the caller already made, by default a new one.
 */
export function isoNow(now: number = Date.now()): string {
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}
