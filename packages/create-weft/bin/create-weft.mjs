#!/usr/bin/env node
// `npm create weft [folder]`: writes a new Weft project.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(built)) {
  console.error('create-weft: run `pnpm build` first (dist/ is missing)');
  process.exit(1);
}
const { runCreate } = await import(built.href);
process.exitCode = runCreate(process.argv.slice(2));
