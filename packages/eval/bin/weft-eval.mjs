#!/usr/bin/env node
// Runs `weft-eval` through tsx (so agent modules in TypeScript load as they are). Inside the Weft
// repository the sources run directly (the `@weft/source` condition); installed, the built files run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const built = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const entry = existsSync(source) ? source : built;
const conditions = existsSync(source) ? ['--conditions=@weft/source'] : [];
const child = spawn(
  process.execPath,
  [...conditions, '--import', import.meta.resolve('tsx'), entry, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
