// Where a documentation file's code runs from: the package it documents.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

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

/**
 * `code` with its relative import specifiers (`from './x.ts'`, `import('./x.ts')`) rewritten to reach the
 * same files from `fromDir`: a README block's relative imports are relative to the README.
 *
 * @param {string} code - the block's code.
 * @param {string} documentDir - the folder of the README (absolute).
 * @param {string} fromDir - the folder the block is written to (absolute).
 * @returns {string}
 * @example
 * rebaseRelativeImports("import { a } from './test/a.ts';", '/repo/packages/eval', '/repo/packages/eval/test-results/x');
 * // "import { a } from '../../test/a.ts';"
 */
export function rebaseRelativeImports(code, documentDir, fromDir) {
  return code.replace(
    /(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]*)\2/g,
    (_match, lead, quote, specifier) => {
      const target = relative(fromDir, resolve(documentDir, specifier));
      return `${lead}${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
    },
  );
}
