// better-sqlite3 installs with `prebuild-install || node-gyp rebuild`: on a machine that cannot reach
// GitHub's release downloads (CI here), every install compiles SQLite for minutes. check:packages
// installs several projects, so after the first compile it keeps that binary as the prebuild tarball
// prebuild-install would have downloaded (same name, same layout) under ~/.cache/weft/prebuilds, and
// later installs take it from there through `npm_config_better_sqlite3_local_prebuilds`.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { run } from './shell.mjs';

const folder = join(homedir(), '.cache', 'weft', 'prebuilds');

/** The env var that points prebuild-install at the cached prebuilds. */
export const prebuildEnv = { npm_config_better_sqlite3_local_prebuilds: folder };

/** Keeps `project`'s compiled better-sqlite3 as a prebuild for Node ABI `abi`, if not kept already. */
export function keepPrebuild(project, abi) {
  const dir = join(project, 'node_modules', 'better-sqlite3');
  const binary = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) return;
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const name = `better-sqlite3-v${version}-node-v${abi}-${process.platform}-${process.arch}.tar.gz`;
  if (existsSync(join(folder, name))) return;
  mkdirSync(folder, { recursive: true });
  run('tar', ['-czf', join(folder, name), '-C', dir, 'build/Release/better_sqlite3.node']);
}
