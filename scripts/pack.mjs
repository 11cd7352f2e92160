// Packs every publishable workspace package into an npm tarball, as it would be published:
//   node scripts/pack.mjs [outDir] [--no-build]   (default .packs/; builds everything first)
// `pnpm pack:all` builds what it packs (`pnpm build`, which includes the playground's web app, server
// bundle and types), so it works on a clean clone. A package whose `bin`, `main`, `types` or `exports`
// names a file its tarball would not hold fails the pack, naming the package and the file.
// Each package is staged (its `files`, README, LICENSE and a rewritten package.json) and packed with
// `npm pack`. The published package.json differs from the workspace one in three ways only:
// - the `@weft/source` export condition is dropped (it points at TypeScript sources that only the
//   workspace has; inside the repo it makes tests and the playground run without a build);
// - `workspace:*` dependencies become the exact version of that package (Weft packages release together);
// - `scripts` and `devDependencies` are left out.
// Prints a JSON list of { name, version, dir, tarball } on stdout (the last line).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const REPOSITORY = 'git+https://github.com/weft-dev/weft.git';
/** The Node.js versions every package supports: the repository's own `engines.node`. */
const rootEngines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;

/** Publishable packages: packages/* and apps/* that are not private, by name. */
export function publishable() {
  const found = new Map();
  for (const group of ['packages', 'apps']) {
    for (const dir of readdirSync(join(root, group))) {
      const path = join(root, group, dir);
      if (!existsSync(join(path, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
      if (!manifest.private) found.set(manifest.name, { dir: path, relative: `${group}/${dir}`, manifest });
    }
  }
  return found;
}

function withoutSourceCondition(exports) {
  if (typeof exports !== 'object' || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== '@weft/source')
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

function pinWorkspace(deps, versions) {
  if (!deps) return deps;
  return Object.fromEntries(
    Object.entries(deps).map(([name, range]) => [
      name,
      range.startsWith('workspace:') ? versions.get(name) : range,
    ]),
  );
}

function publishedManifest(pkg, versions) {
  const { scripts: _scripts, devDependencies: _dev, ...manifest } = pkg.manifest;
  return {
    ...manifest,
    license: manifest.license ?? 'MIT',
    engines: { node: rootEngines, ...manifest.engines },
    repository: { type: 'git', url: REPOSITORY, directory: pkg.relative },
    exports: withoutSourceCondition(manifest.exports),
    dependencies: pinWorkspace(manifest.dependencies, versions),
    ...(manifest.peerDependencies
      ? { peerDependencies: pinWorkspace(manifest.peerDependencies, versions) }
      : {}),
  };
}

/**
 * Runs the repository's pinned pnpm (`packageManager`) with `args`: the one running this script when
 * pnpm started it, else through npx.
 */
export function pnpm(args, options = {}) {
  const execPath = process.env.npm_execpath ?? '';
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  // pnpm may be a script (run with node) or, as pnpm 12 ships it, a native executable.
  const [command, prefix] = !/pnpm/.test(execPath)
    ? ['npx', ['-y', pinned]]
    : /\.[cm]?js$/.test(execPath)
      ? [process.execPath, [execPath]]
      : [execPath, []];
  return execFileSync(command, [...prefix, ...args], { cwd: root, stdio: 'inherit', ...options });
}

/** Builds every package as published (`pnpm build`: tsc, bundles, the playground's web app and server). */
export function buildAll() {
  pnpm(['build']);
}

/** Every file path a manifest's `bin`, `main`, `types`/`typings` and `exports` (all conditions) name. */
export function publishedTargets(manifest) {
  const targets = new Set();
  const add = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./') || !value.includes(':')) targets.add(value.replace(/^\.\//, ''));
    } else if (Array.isArray(value)) value.forEach(add);
    else if (value && typeof value === 'object') Object.values(value).forEach(add);
  };
  add(typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {}));
  add(manifest.main);
  add(manifest.types);
  add(manifest.typings);
  add(manifest.exports);
  // A subpath pattern (`./*`) names no one file.
  return [...targets].filter((target) => !target.includes('*'));
}

/** Throws naming the package and every file its published manifest points at that `stage` lacks. */
export function assertTargetsPresent(name, manifest, stage) {
  const missing = publishedTargets(manifest).filter((target) => !existsSync(join(stage, target)));
  if (missing.length > 0)
    throw new Error(
      `${name}: the tarball would lack ${missing.join(', ')} (named in bin/main/types/exports); ` +
        'is the build complete? (`pnpm build` builds every package, the playground included)',
    );
}

/** Stages and packs every publishable package into `outDir` (built already); returns what it packed. */
export function packAll(outDir = join(root, '.packs')) {
  const packages = publishable();
  const versions = new Map([...packages].map(([name, pkg]) => [name, pkg.manifest.version]));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const packed = [];
  for (const [name, pkg] of packages) {
    const stage = join(outDir, 'stage', pkg.relative.replace('/', '-'));
    mkdirSync(stage, { recursive: true });
    for (const entry of [...(pkg.manifest.files ?? []), 'README.md']) {
      const from = join(pkg.dir, entry);
      if (!existsSync(from))
        throw new Error(`${name}: "${entry}" is in "files" but missing; run pnpm build first`);
      cpSync(from, join(stage, entry), { recursive: true, filter: (src) => !src.endsWith('.tsbuildinfo') });
    }
    cpSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
    const published = publishedManifest(pkg, versions);
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
    assertTargetsPresent(name, published, stage);
    const result = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' }),
    );
    packed.push({
      name,
      version: pkg.manifest.version,
      dir: stage,
      tarball: join(outDir, result[0].filename),
    });
  }
  return packed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (!args.includes('--no-build')) buildAll();
  const outDir = args.find((arg) => !arg.startsWith('--'));
  const packed = packAll(resolve(outDir ?? join(root, '.packs')));
  for (const p of packed) console.error(`packed ${p.name}@${p.version} → ${p.tarball}`);
  console.log(JSON.stringify(packed));
}
