// CI's first step, on a fresh clone with nothing built: runs the README's start command exactly as
// written (the first command of its "Two commands" block), waits until the playground serves its page
// and GET /api/graphs on 127.0.0.1:4317, then stops it. Exits non-zero, with the command's output,
// when it fails, exits, or does not serve within the time allowed.
//   node scripts/check-start.mjs [timeoutSeconds=600]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const root = new URL('..', import.meta.url).pathname;
const URL_BASE = 'http://127.0.0.1:4317';

/** The first command line (not a comment) of the README's "Two commands" sh block. */
export function readmeStartCommand(readme) {
  const block = /## Two commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  const line = block?.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (!line) throw new Error('README.md has no command in its "Two commands" sh block');
  return line.trim();
}

async function serving() {
  try {
    const page = await fetch(`${URL_BASE}/`);
    const html = await page.text();
    const api = await fetch(`${URL_BASE}/api/graphs`);
    const graphs = api.ok ? await api.json() : undefined;
    return page.ok &&
      /<div id="root">/.test(html) &&
      Array.isArray(graphs?.graphs) &&
      graphs.graphs.length > 0
      ? graphs.graphs.map((g) => g.id)
      : undefined;
  } catch {
    return undefined;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const timeoutMs = Number(process.argv[2] ?? 600) * 1000;
  if (await serving()) {
    console.error(`check-start: something already serves ${URL_BASE}; stop it first`);
    process.exit(1);
  }
  const command = readmeStartCommand(readFileSync(`${root}README.md`, 'utf8'));
  console.log(`check-start: ${command}`);
  const started = Date.now();
  const child = spawn('bash', ['-c', command], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  let ids;
  while (ids === undefined && child.exitCode === null && Date.now() - started < timeoutMs) {
    await sleep(500);
    ids = await serving();
  }
  stop();
  if (ids === undefined) {
    const why =
      child.exitCode === null
        ? `did not serve within ${timeoutMs / 1000} s`
        : `exited with ${child.exitCode}`;
    console.error(`check-start: the README's start command ${why}:\n${output.slice(-4000)}`);
    process.exit(1);
  }
  console.log(
    `check-start: served the page and /api/graphs (${ids.join(', ')}) ${((Date.now() - started) / 1000).toFixed(1)} s after the command started`,
  );
  process.exit(0);
}
