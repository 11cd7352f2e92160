// The doc blocks known not to compile yet, keyed by file and code hash (see `blockKey`). The list may only
// shrink: a listed block that compiles (or changed) fails the test until its line is deleted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the list lives, relative to the repository root. */
export const knownFailingPath = 'scripts/doc-examples/known-failing.txt';

/**
 * The known-failing blocks: key → the note after it (the symbol and first error when the line was written).
 * Lines are `<file> <hash>  # note`; blank lines and lines starting with `#` are ignored.
 *
 * @param {string} root - the repository root.
 * @returns {Map<string, string>}
 * @example
 * knownFailing(root).has('packages/adk/src/agent/agent-context.ts 0123456789'); // false once it compiles
 */
export function knownFailing(root) {
  const file = join(root, knownFailingPath);
  /** @type {Map<string, string>} */
  const known = new Map();
  if (!existsSync(file)) return known;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const found = /^(\S+) ([0-9a-f]{10})\s*(?:#\s*(.*))?$/.exec(line.trim());
    if (found) known.set(`${found[1]} ${found[2]}`, found[3] ?? '');
  }
  return known;
}

/**
 * Writes the list from a check report's failing blocks (used once to start the list, and to shrink it).
 *
 * @param {string} root - the repository root.
 * @param {import('./check.mjs').CheckedBlock[]} failing - the blocks with diagnostics.
 * @example
 * writeKnownFailing(root, report.checked.filter((entry) => entry.diagnostics.length > 0));
 */
export function writeKnownFailing(root, failing) {
  const header = [
    '# TSDoc @example / README blocks that do not compile yet (issue #18, 5). This list only shrinks:',
    '# fix a block (make it a real, compiling example) and delete its line. Format: <file> <hash>  # <symbol>: <first error>',
  ];
  const lines = failing.map((entry) => {
    const first = entry.diagnostics[0];
    const note = `${entry.block.symbol ?? 'block'} (line ${entry.block.line}): ${first?.code} ${first?.message.split('\n')[0]}`;
    return `${entry.key}  # ${note}`;
  });
  writeFileSync(join(root, knownFailingPath), `${[...header, ...lines.sort()].join('\n')}\n`);
}
