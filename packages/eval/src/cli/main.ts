// The `weft-eval` executable (also `weft eval` in @weft/playground): runs under tsx so agent modules
// written in TypeScript load as they are.
import { runEvalCli } from './run-eval-cli.js';

const code = await runEvalCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
});
process.exitCode = code;
