// Import cycles among the modules reachable from some entry files, type-only imports included: a type
// cycle is a layering cycle too (two folders that need each other's types cannot be read, built or moved
// apart). Used by check-deps.mjs (`pnpm lint`); tested by import-cycles.test.mjs on a fixture.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dpdm = join(new URL('..', import.meta.url).pathname, 'node_modules', '.bin', 'dpdm');

/**
 * Returns every import cycle dpdm finds from `entries` (paths relative to `cwd`), each as the list of
 * files on it, or `[]` when there is none.
 *
 * @example
 * for (const cycle of importCycles(['packages/compose/src/index.ts'], root)) console.error(cycle.join(' -> '));
 */
export function importCycles(entries, cwd) {
  if (!Array.isArray(entries) || entries.length === 0)
    throw new TypeError('importCycles: `entries` must be a non-empty array of files');
  const dir = mkdtempSync(join(tmpdir(), 'weft-cycles-'));
  try {
    const output = join(dir, 'dpdm.json');
    execFileSync(
      dpdm,
      ['--no-tree', '--no-warning', '--no-progress', '--no-circular', '-o', output, ...entries],
      {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return JSON.parse(readFileSync(output, 'utf8')).circulars;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
