let lastMs = 0;
let counter = 0;
const random = (): string =>
  Math.floor(Math.random() * 2 ** 32)
    .toString(36)
    .padStart(7, '0');
const prefix = random();

/**
 * A time-sortable unique id: 9 base-36 chars of milliseconds, a 5-char counter within the
 * millisecond, then random characters (lexicographic order = creation order within a process).
 */
export function sortableId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else counter++;
  return `${lastMs.toString(36).padStart(9, '0')}-${counter.toString(36).padStart(5, '0')}-${prefix}${random()}`;
}

let runCounter = 0;

/** A cheap unique run id (process prefix + counter). */
export function runId(): string {
  runCounter++;
  return `run-${prefix}-${runCounter.toString(36)}`;
}
