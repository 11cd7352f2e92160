// Where a documentation file's code runs from: the package it documents.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The closest folder at or above `file` (relative to `root`) that has a package.json; `root` if none.
 * A README's blocks are compiled and run from there, so imports resolve as for that package's user.
 *
 * @param {string} root - the repository root (absolute).
 * @param {string} file - a path relative to `root`.
 * @returns {string}
 * @example
 * packageDirOf('/repo', 'packages/otel/README.md'); // '/repo/packages/otel'
 */
export function packageDirOf(root, file) {
  let dir = dirname(resolve(root, file));
  while (dir.startsWith(root) && !existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir.startsWith(root) ? dir : root;
}
