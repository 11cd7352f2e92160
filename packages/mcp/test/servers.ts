import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentEvent, ToolMessage } from '@weft/adk';
import type { McpStdioServer } from '../src/index.js';

const modules = new URL('../node_modules/@modelcontextprotocol/', import.meta.url);

/** The reference "everything" server from npm, started over stdio. */
export function everythingServer(): McpStdioServer {
  const entry = fileURLToPath(new URL('server-everything/dist/index.js', modules));
  return { command: process.execPath, args: [entry, 'stdio'] };
}

/** The reference filesystem server from npm, serving a fresh temp directory holding `files`. */
export function filesystemServer(files: Record<string, string> = {}): McpStdioServer & { root: string } {
  const root = mkdtempSync(join(tmpdir(), 'weft-mcp-fs-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const entry = fileURLToPath(new URL('server-filesystem/dist/index.js', modules));
  return { command: process.execPath, args: [entry, root], root };
}

/** Pids of this process's children whose command line contains `marker`. */
export function childPids(marker: string): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there is no child
  }
  return out
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/** The tool messages among a run's events. */
export function toolMessages(events: readonly AgentEvent[]): ToolMessage[] {
  return events.flatMap((event) =>
    !event.partial && event.message?.role === 'tool' ? [event.message as ToolMessage] : [],
  );
}

/** Resolves when `condition` holds after one of `subscribe`'s notifications. */
export function whenNotified(subscribe: (listener: () => void) => () => void, condition: () => boolean) {
  return new Promise<void>((resolve) => {
    const stop = subscribe(() => {
      if (!condition()) return;
      stop();
      resolve();
    });
  });
}
