// Starts the two servers as child processes and reads their memory (the process tree's RSS).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const bench = join(here, '../..');

/** A server process under test. */
export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

async function started(name: string, child: ChildProcess, pattern: RegExp): Promise<ServerProcess> {
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the CLI's ANSI colour codes
      const match = pattern.exec(output.replace(/\u001b\[[0-9;]*m/g, ''));
      if (match) resolve(match[1]!);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}):\n${output}`)));
  });
  return {
    name,
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Weft's server (`@weft/server`, from source through tsx) on a SQLite file of its own. */
export function startWeft(): Promise<ServerProcess> {
  const database = join(mkdtempSync(join(tmpdir(), 'weft-bench-server-')), 'server.db');
  const child = spawn(
    process.execPath,
    ['--conditions=@weft/source', '--import', 'tsx', join(here, 'weft-server.ts'), database],
    {
      cwd: bench,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return started('weft', child, /listening (http:\S+)/);
}

/** The reference: `langgraphjs dev` (in memory, no browser, no analytics) on `port`. */
export function startReference(port: number): Promise<ServerProcess> {
  const child = spawn(
    join(bench, 'node_modules/.bin/langgraphjs'),
    ['dev', '--no-browser', '--host', '127.0.0.1', '--port', String(port), '--config', 'langgraph.json'],
    {
      cwd: here,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: '1' },
      detached: true,
    },
  );
  return started('reference', child, /Server running at (\S+)/).then((server) => ({
    ...server,
    url: server.url.startsWith('http') ? server.url : `http://${server.url}`,
    stop: async () => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGTERM');
      } catch {}
      await server.stop();
    },
  }));
}

/** Resident memory of a process and its descendants, in MiB (Linux /proc). */
export function treeRssMiB(pid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {}
  }
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [child, parent] of parents)
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
  }
  let kib = 0;
  for (const member of tree) {
    try {
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${member}/status`, 'utf8'))?.[1];
      kib += Number(rss ?? 0);
    } catch {}
  }
  return kib / 1024;
}
