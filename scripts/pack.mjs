// Packs every publishable workspace package into an npm tarball, as it would be published:
//   node scripts/pack.mjs [outDir]        (default .packs/; run `pnpm build` first)
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
    engines: { node: '>=20.11', ...manifest.engines },
    repository: { type: 'git', url: REPOSITORY, directory: pkg.relative },
    exports: withoutSourceCondition(manifest.exports),
    dependencies: pinWorkspace(manifest.dependencies, versions),
    ...(manifest.peerDependencies
      ? { peerDependencies: pinWorkspace(manifest.peerDependencies, versions) }
      : {}),
  };
}

/** Stages and packs every publishable package into `outDir`; returns what it packed. */
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
    writeFileSync(
      join(stage, 'package.json'),
      `${JSON.stringify(publishedManifest(pkg, versions), null, 2)}\n`,
    );
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
  const packed = packAll(resolve(process.argv[2] ?? join(root, '.packs')));
  for (const p of packed) console.error(`packed ${p.name}@${p.version} → ${p.tarball}`);
  console.log(JSON.stringify(packed));
}
