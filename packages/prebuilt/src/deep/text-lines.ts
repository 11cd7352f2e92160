/**
 * Visits the lines of `text` (split at `\n`; a final newline ends the last line rather than starting an
 * empty one) as offsets into `text`, without splitting it: the file tools' memory stays the text itself
 * plus what they keep, however many short lines it has. Stops when `visit` returns `false`.
 *
 * @returns how many lines were visited.
 * @example
 * ```ts
 * const text = 'one\ntwo\nthree\n';
 * const firstTwo: string[] = [];
 * eachLine(text, (start, end) => firstTwo.push(text.slice(start, end)) < 2); // stops after two
 * firstTwo; // ['one', 'two']
 * eachLine(text, () => true); // 3
 * ```
 */
export function eachLine(
  text: string,
  visit: (start: number, end: number, index: number) => boolean,
): number {
  let start = 0;
  let index = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    if (!visit(start, end, index++)) return index;
    start = end + 1;
  }
  return index;
}

/**
 * Counts the lines of `text` as {@link eachLine} visits them, without allocating.
 *
 * @example
 * ```ts
 * countLines('one\ntwo\n'); // 2
 * countLines(''); // 0
 * ```
 */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < text.length - 1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
