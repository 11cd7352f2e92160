// Runs the README blocks marked `<!-- doc-example: run -->`, as a user would: the block (after its hidden
// prelude) is a module in a scratch folder of the package the README documents, run by node with tsx and
// the `@weft/source` condition, so `@weft/*` imports resolve to the workspace sources.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { packageDirOf, rebaseRelativeImports } from './package-dir.mjs';

const execute = promisify(execFile);

/**
 * @typedef {{ stdout: string, stderr: string, exitCode: number }} BlockRun
 */

/**
 * Runs one block and returns what it printed and its exit code (a throw in the block is exit code 1 with
 * the error on stderr, not a rejection).
 *
 * @param {string} root - the repository root.
 * @param {import('./extract.mjs').DocBlock} block - a README block (usually marked `run`).
 * @param {{ timeoutMs?: number }} [options] - `timeoutMs` kills a hung block (default 120 s).
 * @returns {Promise<BlockRun>}
 * @example
 * const [quickstart] = runnableBlocks(extractMarkdownBlocks(readme, 'packages/otel/README.md'));
 * const { stdout, exitCode } = await runDocBlock(root, quickstart);
 */
export async function runDocBlock(root, block, options = {}) {
  const packageDir = packageDirOf(root, block.file);
  const scratch = join(packageDir, 'test-results/doc-examples', `run-${process.pid}-${block.line}`);
  mkdirSync(scratch, { recursive: true });
  const file = join(scratch, 'block.ts');
  writeFileSync(
    file,
    rebaseRelativeImports(
      `${block.marker.prelude?.code ?? ''}${block.code}`,
      dirname(resolve(root, block.file)),
      scratch,
    ),
  );
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      ['--conditions=@weft/source', '--import', 'tsx', file],
      {
        cwd: packageDir,
        timeout: options.timeoutMs ?? 120_000,
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      },
    );
    return { stdout, stderr, exitCode: 0 };
  } catch (error) {
    const failed = /** @type {{ stdout?: string, stderr?: string, code?: number }} */ (error);
    return {
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? String(error),
      exitCode: failed.code ?? 1,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The blocks marked `run`.
 * @param {import('./extract.mjs').DocBlock[]} blocks
 */
export function runnableBlocks(blocks) {
  return blocks.filter((block) => block.marker.kind === 'run');
}
