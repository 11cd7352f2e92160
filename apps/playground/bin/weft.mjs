#!/usr/bin/env node
// Runs the `weft` CLI from its TypeScript sources: through tsx, with workspace packages resolved to
// their sources (the `@weft/source` condition), in a child process that gets the same arguments.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../src/cli/weft.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const child = spawn(
  process.execPath,
  ['--conditions=@weft/source', '--import', tsx, cli, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
