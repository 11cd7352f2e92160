let lastMs = 0;
let counter = 0;
const salt = Math.floor(Math.random() * 36 ** 6)
  .toString(36)
  .padStart(6, '0');

/** A time-sortable unique id (lexicographic order = creation order within a process). */
export function eventId(prefix = 'e'): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else counter++;
  return `${prefix}-${now.toString(36).padStart(9, '0')}-${counter.toString(36).padStart(4, '0')}-${salt}`;
}
