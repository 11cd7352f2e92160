// Sets one version on every publishable package, packs them, and publishes them (dry run unless
// --publish): node scripts/release.mjs <version> [--publish] [--tag next]
// Weft packages release together at one version; `workspace:*` dependencies become that exact
// version in the tarballs (scripts/pack.mjs). Run it on a clean main after `pnpm check`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAll, packAll, publishable } from './pack.mjs';

const [version, ...flags] = process.argv.slice(2);
if (!version || !/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) {
  console.error('usage: node scripts/release.mjs <semver> [--publish] [--tag <dist-tag>]');
  process.exit(2);
}
const publish = flags.includes('--publish');
const tag = flags.includes('--tag') ? flags[flags.indexOf('--tag') + 1] : undefined;

for (const [name, pkg] of publishable()) {
  const path = join(pkg.dir, 'package.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  if (manifest.version === version) continue;
  manifest.version = version;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${name}: ${pkg.manifest.version} → ${version}`);
}
buildAll();
for (const p of packAll()) {
  const args = [
    'publish',
    p.tarball,
    '--access',
    'public',
    ...(tag ? ['--tag', tag] : []),
    ...(publish ? [] : ['--dry-run']),
  ];
  console.log(`npm ${args.join(' ')}`);
  execFileSync('npm', args, { stdio: 'inherit' });
}
console.log(publish ? `published ${version}` : `dry run: nothing was published (add --publish)`);
