// A private npm registry on loopback (Verdaccio, fetched once into ~/.cache/weft), holding Weft's
// tarballs as if they were published and passing every other package through to the public registry.
// check:packages uses it to run the commands the README gives for after the release
// (`npm create weft@latest`, `npx @weft/playground …`) and prove they resolve to Weft's packages.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { run } from './shell.mjs';

// The newest Verdaccio whose engines admit Node 20.
const VERDACCIO = '6.8.0';

function verdaccioBin() {
  const prefix = join(homedir(), '.cache', 'weft', `verdaccio-${VERDACCIO}`);
  const bin = join(prefix, 'node_modules', '.bin', 'verdaccio');
  if (!existsSync(bin)) {
    mkdirSync(prefix, { recursive: true });
    run('npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      prefix,
      `verdaccio@${VERDACCIO}`,
    ]);
  }
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the registry, publishes `packed` (`{ name, tarball }[]`) to it, and returns its URL (to pass
 * as `npm_config_registry`; installing needs no login) and `stop()`. Weft's names are served only from
 * here (never looked up upstream); everything else comes from registry.npmjs.org.
 */
export async function startLocalRegistry(packed) {
  const home = mkdtempSync(join(tmpdir(), 'weft-registry-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(home, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(home, 'storage')}`,
      'auth:',
      `  htpasswd: { file: ${join(home, 'htpasswd')}, max_users: 10 }`,
      'uplinks:',
      '  npmjs: { url: https://registry.npmjs.org/ }',
      'packages:',
      "  '@weft/*': { access: $all, publish: $authenticated }",
      "  'create-weft': { access: $all, publish: $authenticated }",
      "  '**': { access: $all, publish: $authenticated, proxy: npmjs }",
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  );
  const child = spawn(verdaccioBin(), ['--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  for (let i = 0; ; i += 1) {
    const up = await fetch(`${url}-/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 300 || child.exitCode !== null) {
      stop();
      throw new Error(`the local registry did not start:\n${log}`);
    }
    await sleep(100);
  }
  // A user to publish as: Verdaccio's htpasswd plugin makes one on the first login.
  const user = await fetch(`${url}-/user/org.couchdb.user:weft`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'weft', password: 'weft-local-registry' }),
  }).then((r) => r.json());
  if (!user.token) throw new Error(`the local registry gave no token: ${JSON.stringify(user)}`);
  const npmrc = join(home, '.npmrc');
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${user.token}\n`);
  for (const p of packed)
    run('npm', ['publish', p.tarball, '--userconfig', npmrc, '--registry', url, '--loglevel=error']);
  return { url, npmrc, stop };
}
