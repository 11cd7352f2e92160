// Small helpers the repository's scripts share: run a command, print a step, serve a command until it
// prints its URL.
import { execFileSync, spawn, spawnSync } from 'node:child_process';

/** Prints a step heading. */
export const step = (text) => console.log(`\n== ${text}`);

/** Runs a command, returning its stdout; throws with its stdout and stderr when it fails. */
export function run(command, args, options = {}) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    throw new Error(`${command} ${args.join(' ')} failed (${error.status ?? error.signal}):\n${output}`);
  }
}

/** Runs a command, returning its stdout and stderr together; throws with both when it fails. */
export function runWithStderr(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${output.trim()}`,
    );
  return output;
}

/**
 * Starts a long-running command in its own process group and waits until it prints `open <url>`.
 * Returns the URL and `stop()`, which ends the whole group (npx, the bin and the server it starts).
 */
export function serve(command, args, { cwd, env, timeoutMs = 180_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const stop = () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      stop();
      reject(
        new Error(
          `${command} ${args.join(' ')} did not print its URL within ${timeoutMs / 1000} s\n${output}`,
        ),
      );
    }, timeoutMs);
    const onData = (data) => {
      output += data;
      const url = /open (http:\/\/\S+)/.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, stop, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (data) => {
      output += data;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${output}`));
    });
  });
}

/** Reads JSON from a URL; throws naming the URL and the status when it is not a 2xx. */
export async function getJson(url, init) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}
