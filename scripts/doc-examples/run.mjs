// Runs the documentation blocks marked `run` (`<!-- doc-example: run -->`, `<!-- doc-example: continues run -->`),
// as a user would: the module they belong to (a block and the `continues` blocks after it, each after its
// hidden prelude) is one program in a scratch folder of the package the Markdown file documents, run by
// node with tsx and the `@weft/source` condition, so `@weft/*` imports resolve to the workspace sources.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { docModules } from './modules.mjs';
import { packageDirOf, rebaseRelativeImports } from './package-dir.mjs';

const execute = promisify(execFile);
/** Printed between two blocks of a module, so each block's output can be told apart. */
const separator = '\u001edoc-example-block\u001e';

/**
 * @typedef {{ stdout: string, stderr: string, exitCode: number }} BlockRun
 * @typedef {BlockRun & { outputs: string[] }} ModuleRun
 */

/**
 * Runs one module (its blocks in order, as one program) and returns what it printed, what each block
 * printed (`outputs[i]` for `module[i]`) and its exit code (a throw in a block is exit code 1 with the
 * error on stderr, not a rejection).
 *
 * @param {string} root - the repository root.
 * @param {import('./extract.mjs').DocBlock[]} module - blocks of one file, as `docModules` groups them.
 * @param {{ timeoutMs?: number }} [options] - `timeoutMs` kills a hung program (default 300 s).
 * @returns {Promise<ModuleRun>}
 * @example
 * const [tutorial] = runnableModules(extractMarkdownBlocks(text, 'apps/docs/src/tutorials/first-graph.md'));
 * const { outputs, exitCode } = await runDocModule(root, tutorial);
 */
export async function runDocModule(root, module, options = {}) {
  const first = module[0];
  if (!first) throw new Error('runDocModule needs at least one block');
  const packageDir = packageDirOf(root, first.file);
  const scratch = join(
    packageDir,
    'test-results/doc-examples',
    `run-${process.pid}-${first.line}-${slug(first.file)}`,
  );
  mkdirSync(scratch, { recursive: true });
  const file = join(scratch, 'block.ts');
  const code = module
    .map((block) => `${block.marker.prelude?.code ?? ''}${block.code}${block.epilogue?.code ?? ''}`)
    .join(`;process.stdout.write(${JSON.stringify(`\n${separator}\n`)});\n`);
  writeFileSync(file, rebaseRelativeImports(code, dirname(resolve(root, first.file)), scratch));
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      ['--conditions=@weft/source', '--import', 'tsx', file],
      {
        cwd: packageDir,
        timeout: options.timeoutMs ?? 300_000,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      },
    );
    return { stdout: joined(stdout), stderr, exitCode: 0, outputs: split(stdout) };
  } catch (error) {
    const failed = /** @type {{ stdout?: string, stderr?: string, code?: number }} */ (error);
    return {
      stdout: joined(failed.stdout ?? ''),
      stderr: failed.stderr ?? String(error),
      exitCode: typeof failed.code === 'number' ? failed.code : 1,
      outputs: split(failed.stdout ?? ''),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs one block alone (after its hidden prelude).
 *
 * @param {string} root - the repository root.
 * @param {import('./extract.mjs').DocBlock} block - a README block (usually marked `run`).
 * @param {{ timeoutMs?: number }} [options] - `timeoutMs` kills a hung block (default 300 s).
 * @returns {Promise<BlockRun>}
 * @example
 * const [quickstart] = runnableBlocks(extractMarkdownBlocks(readme, 'packages/otel/README.md'));
 * const { stdout, exitCode } = await runDocBlock(root, quickstart);
 */
export async function runDocBlock(root, block, options = {}) {
  const { stdout, stderr, exitCode } = await runDocModule(root, [block], options);
  return { stdout, stderr, exitCode };
}

/**
 * The blocks marked to run (`run`, or `continues run`).
 * @param {import('./extract.mjs').DocBlock[]} blocks
 */
export function runnableBlocks(blocks) {
  return blocks.filter((block) => block.marker.run === true);
}

/**
 * The modules that run: those with at least one block marked to run.
 * @param {import('./extract.mjs').DocBlock[]} blocks
 * @returns {import('./extract.mjs').DocBlock[][]}
 */
export function runnableModules(blocks) {
  return docModules(blocks).filter((module) => module.some((block) => block.marker.run === true));
}

/**
 * The environment variables a module's run needs (its blocks' `needs NAME`) that are not set.
 * @param {import('./extract.mjs').DocBlock[]} module
 * @param {Record<string, string | undefined>} [env]
 * @returns {string[]}
 */
export function missingNeeds(module, env = process.env) {
  return [...new Set(module.flatMap((block) => block.marker.needs ?? []))].filter((name) => !env[name]);
}

/** @param {string} stdout */
function split(stdout) {
  return stdout.split(`\n${separator}\n`);
}

/** @param {string} stdout */
function joined(stdout) {
  return split(stdout).join('');
}

/** @param {string} file */
function slug(file) {
  return file
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(-40);
}
