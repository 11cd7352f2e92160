// Bundles the `tsc` output of the packages whose exports point into `dist/bundle/`: each such entry
// (`./dist/bundle/index.js`) is built from the matching tsc module (`./dist/index.js`) into one ESM
// file, entries sharing code through chunks (so a class is one class across entries). Dependencies stay
// external. Why: Node's ESM loader pays per module; compose's ~75 modules took 25 ms to load, one
// file takes 5 (see bench/README.md, cold import). Types still come from tsc's `.d.ts` files.
//
// Usage: node scripts/bundle.mjs            (every package and app)
//        node scripts/bundle.mjs <dir>...   (the given package directories)
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const BUNDLE = './dist/bundle/';

function packageDirs() {
  const given = process.argv.slice(2);
  if (given.length > 0) return given.map((dir) => join(process.cwd(), dir));
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group)).map((dir) => join(root, group, dir)),
  );
}

/** Export targets under dist/bundle, as esbuild entry points named by their path inside it. */
function bundleEntries(manifest) {
  const entries = {};
  for (const target of Object.values(manifest.exports ?? {})) {
    const file = typeof target === 'string' ? target : target?.default;
    if (typeof file !== 'string' || !file.startsWith(BUNDLE)) continue;
    const name = file.slice(BUNDLE.length).replace(/\.js$/, '');
    entries[name] = `./dist/${name}.js`;
  }
  return entries;
}

for (const dir of packageDirs()) {
  const manifestPath = join(dir, 'package.json');
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entries = bundleEntries(manifest);
  if (Object.keys(entries).length === 0) continue;
  for (const [name, file] of Object.entries(entries)) {
    if (!existsSync(join(dir, file))) {
      throw new Error(
        `${manifest.name}: ${file} (for the bundle entry "${name}") is missing; run tsc -b first`,
      );
    }
  }
  rmSync(join(dir, 'dist/bundle'), { recursive: true, force: true });
  await build({
    absWorkingDir: dir,
    entryPoints: entries,
    outdir: 'dist/bundle',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    sourcemap: true,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  console.log(
    `bundled ${manifest.name}: ${Object.keys(entries).join(', ')} → ${relative(root, dir)}/dist/bundle`,
  );
}
