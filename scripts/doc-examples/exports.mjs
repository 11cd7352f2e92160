// The names a module exports, read from its source text (no compiler needed): what a TSDoc `@example` may
// use without writing the import.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const declaration =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)/gm;
const list = /^export\s+(type\s+)?\{([^}]*)\}(?:\s+from\s+['"]([^'"]+)['"])?/gm;
const star = /^export\s+\*\s+from\s+['"]([^'"]+)['"]/gm;

/**
 * The exported names of a TypeScript module, following `export * from` and `export { … } from` re-exports
 * to relative files.
 *
 * @param {string} file - absolute path of a `.ts` module.
 * @param {Set<string>} [seen] - files already visited (guards against re-export cycles).
 * @returns {Set<string>}
 * @example
 * exportedNames('/repo/packages/compose/src/index.ts').has('Graph'); // true
 */
export function exportedNames(file, seen = new Set()) {
  /** @type {Set<string>} */
  const names = new Set();
  if (seen.has(file) || !existsSync(file)) return names;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(declaration)) if (match[1]) names.add(match[1]);
  for (const match of text.matchAll(list))
    for (const part of (match[2] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)
        ?.trim();
      if (name && name !== 'default') names.add(name);
    }
  for (const match of text.matchAll(star)) {
    const target = sourceOf(dirname(file), match[1] ?? '');
    if (target) for (const name of exportedNames(target, seen)) names.add(name);
  }
  return names;
}

/**
 * The `.ts` file a relative import specifier names (`./x.js` → `./x.ts`, `./dir` → `./dir/index.ts`), or
 * undefined for a package import.
 * @param {string} dir
 * @param {string} specifier
 */
function sourceOf(dir, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dir, specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}/index.ts`].find((candidate) => existsSync(candidate));
}

/**
 * The public entry points of a workspace package: `[specifier, source file]` pairs read from the
 * `@weft/source` conditions of its `exports`, main entry first.
 *
 * @param {string} packageDir - absolute path of the package.
 * @returns {[string, string][]}
 * @example
 * packageEntries('/repo/packages/compose')[0]; // ['@weft/compose', '/repo/packages/compose/src/index.ts']
 */
export function packageEntries(packageDir) {
  const manifest = JSON.parse(readFileSync(resolve(packageDir, 'package.json'), 'utf8'));
  /** @type {[string, string][]} */
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const source = typeof target === 'object' && target ? target['@weft/source'] : undefined;
    if (typeof source !== 'string') continue;
    entries.push([
      subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      resolve(packageDir, source),
    ]);
  }
  return entries;
}
