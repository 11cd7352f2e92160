import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The package a tarball written by `npm pack` (or Weft's `pnpm pack:all`) holds, read from its file
 * name: `weft-compose-0.1.0.tgz` is `@weft/compose` at 0.1.0, `create-weft-0.1.0.tgz` is `create-weft`.
 */
function packOf(file: string): { readonly name: string; readonly version: string } | undefined {
  const match = /^(weft-|)([a-z0-9-]+?)-(\d+\.\d+\.\d+(?:-[0-9a-z.-]+)?)\.tgz$/i.exec(file);
  if (!match) return undefined;
  const [, scope, base, version] = match as unknown as [string, string, string, string];
  if (scope === '' && base !== 'create-weft') return undefined;
  return { name: scope === '' ? base : `@weft/${base}`, version };
}

/**
 * Weft's tarballs of one version in a folder, by package name, with absolute paths.
 *
 * @throws Error naming the folder when it does not exist.
 */
export function packsIn(folder: string, version: string): Map<string, string> {
  if (!existsSync(folder)) throw new Error(`--packs: the folder ${folder} does not exist`);
  const found = new Map<string, string>();
  for (const file of readdirSync(folder)) {
    const pack = packOf(file);
    if (pack?.version === version) found.set(pack.name, resolve(folder, file));
  }
  return found;
}

/**
 * The folder of Weft tarballs the project around `cwd` was installed from, if it was: the nearest
 * package.json whose `@weft/*` dependencies are `file:` tarballs (what `npm install ./weft-*.tgz`
 * writes). That is how `weft init`, run from such a project, points the new one at the same tarballs.
 */
export function detectPacks(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const manifestPath = join(dir, 'package.json');
    if (existsSync(manifestPath)) {
      // A package.json read as what it may hold: dependency maps of strings.
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        readonly dependencies?: Readonly<Record<string, string>>;
        readonly devDependencies?: Readonly<Record<string, string>>;
      };
      const specs = [manifest.dependencies, manifest.devDependencies].flatMap((deps) =>
        deps && typeof deps === 'object' ? Object.entries(deps) : [],
      );
      for (const [name, spec] of specs) {
        if (!name.startsWith('@weft/') || !spec.startsWith('file:') || !spec.endsWith('.tgz')) continue;
        const path = spec.slice('file:'.length);
        return dirname(isAbsolute(path) ? path : resolve(dir, path));
      }
      return undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
