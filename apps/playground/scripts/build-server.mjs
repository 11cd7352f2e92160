// Builds the published form of the playground's server and CLI (the web app is built by Vite):
// esbuild bundles src/index.ts and src/cli/weft.ts into dist/ (packages stay external), the CLI's
// module hooks are copied beside it, and tsc writes the declaration files of the public entry.
// Inside the repository none of this is needed: `weft` runs from the TypeScript sources.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
await build({
  absWorkingDir: root,
  entryPoints: { index: 'src/index.ts', 'cli/weft': 'src/cli/weft.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
mkdirSync(`${root}dist/cli`, { recursive: true });
// The CLI registers `./reload-hooks.mjs` relative to the module that holds that code: the CLI entry
// or, when esbuild moves the code into a shared chunk, a chunk in dist/. The hooks sit beside both.
copyFileSync(`${root}src/cli/reload-hooks.mjs`, `${root}dist/cli/reload-hooks.mjs`);
copyFileSync(`${root}src/cli/reload-hooks.mjs`, `${root}dist/reload-hooks.mjs`);
execFileSync(
  process.execPath,
  [`${root}../../node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`],
  {
    stdio: 'inherit',
  },
);

// The sources import each other as `./x.ts`; published declarations must say `./x.js`.
const types = join(root, 'dist', 'types');
for (const entry of readdirSync(types, { recursive: true })) {
  const file = join(types, String(entry));
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(/(from\s+['"]\.{1,2}\/[^'"]*?)\.ts(['"])/g, '$1.js$2');
  if (rewritten !== text) writeFileSync(file, rewritten);
}
