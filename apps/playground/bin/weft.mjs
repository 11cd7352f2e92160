#!/usr/bin/env node
// Runs the `weft` CLI in a child process that gets the same arguments, with tsx loaded so graph and
// agent modules written in TypeScript load as they are. Inside the Weft repository the CLI runs from
// its TypeScript sources (workspace packages resolved to theirs through the `@weft/source` condition);
// installed from npm, it runs the built dist/cli/weft.js.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/cli/weft.ts', import.meta.url));
const built = fileURLToPath(new URL('../dist/cli/weft.js', import.meta.url));
const fromSource = existsSync(source);
const tsx = import.meta.resolve('tsx');
const child = spawn(
  process.execPath,
  [
    ...(fromSource ? ['--conditions=@weft/source'] : []),
    '--import',
    tsx,
    fromSource ? source : built,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
