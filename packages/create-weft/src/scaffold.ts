import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packsIn } from './local-packs.js';

/** This package's version, read from its package.json (Weft packages are released together). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;

/** The project template shipped with this package. */
const TEMPLATE = fileURLToPath(new URL('../template', import.meta.url));
/** Files whose `{{name}}` and `{{version}}` are filled in. */
const FILLED = ['package.json', 'README.md'];

/** Options of {@link scaffold}. */
export interface ScaffoldOptions {
  /** The folder to create (or an empty existing one). */
  readonly directory: string;
  /** The package name (default: the folder's name). */
  readonly name?: string;
  /** The Weft version the project depends on (default: this package's). */
  readonly version?: string;
  /**
   * A folder of Weft tarballs (`pnpm pack:all` writes them to `.packs/`): the project depends on
   * those files instead of the registry, every Weft package (its own dependencies included) resolved
   * to its tarball through `overrides`, so `npm install` works before the packages are published.
   */
  readonly packs?: string;
}

/**
 * Writes a new Weft project from the template: package.json (`dev` = `weft dev src/app.ts`, `test` =
 * vitest), tsconfig.json, a graph, an agent on a scripted model, the playground app and a test. Returns
 * the files written, relative to the folder.
 *
 * @throws Error naming the folder when it exists and is not empty, or the name is not a valid npm name;
 * naming the packages whose tarballs `packs` lacks.
 * @example
 * ```ts
 * scaffold({ directory: 'my-agent' }); // then: cd my-agent && npm install && npm test
 * ```
 */
export function scaffold(options: ScaffoldOptions): string[] {
  const directory = resolve(options.directory);
  if (existsSync(directory) && readdirSync(directory).length > 0)
    throw new Error(`${options.directory} exists and is not empty; choose a new folder`);
  const name = options.name ?? basename(directory).toLowerCase();
  if (!/^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name))
    throw new Error(`"${name}" is not a valid npm package name; pass another folder or a name`);
  cpSync(TEMPLATE, directory, { recursive: true });
  // npm leaves `.gitignore` files out of tarballs, so the template ships it as `gitignore`.
  renameSync(join(directory, 'gitignore'), join(directory, '.gitignore'));
  for (const file of FILLED) {
    const path = join(directory, file);
    const text = readFileSync(path, 'utf8');
    writeFileSync(
      path,
      text.replaceAll('{{name}}', name).replaceAll('{{version}}', options.version ?? VERSION),
    );
  }
  if (options.packs !== undefined) useLocalPacks(directory, options.packs, options.version ?? VERSION);
  return filesIn(directory);
}

/** Points the project's Weft dependencies, direct and transitive, at the tarballs in `folder`. */
function useLocalPacks(directory: string, folder: string, version: string): void {
  const packs = packsIn(folder, version);
  const path = join(directory, 'package.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as {
    dependencies: Record<string, string>;
    overrides?: Record<string, string>;
  };
  const weft = Object.keys(manifest.dependencies).filter((name) => name.startsWith('@weft/'));
  const missing = weft.filter((name) => !packs.has(name));
  if (missing.length > 0)
    throw new Error(
      `--packs: ${folder} has no tarball of ${missing.join(', ')} at ${version}; run \`pnpm pack:all\` in the Weft repository`,
    );
  const spec = (name: string) => `file:${packs.get(name)}`;
  for (const name of weft) manifest.dependencies[name] = spec(name);
  manifest.overrides = Object.fromEntries([...packs.keys()].sort().map((name) => [name, spec(name)]));
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

function filesIn(directory: string, prefix = ''): string[] {
  return readdirSync(join(directory, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? filesIn(directory, path) : [path];
    })
    .sort();
}
