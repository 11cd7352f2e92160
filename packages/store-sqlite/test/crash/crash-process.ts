import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** A child process of a crash test and what it printed once it exits. */
export interface CrashChild {
  readonly process: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
}

/**
 * Starts `script` in a Node child (workspace sources through `@weft/source`, TypeScript through tsx) and
 * remembers it in `children`, so the test's cleanup can kill what is left.
 */
export function startChild(
  script: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly children: ChildProcess[] },
): CrashChild {
  const process = spawn('node', ['--conditions=@weft/source', '--import', 'tsx', script, ...args], {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.children.push(process);
  let stdout = '';
  let stderr = '';
  process.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  process.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // No deadline of its own: on a loaded machine the child's start alone can take tens of seconds; the
  // test's timeout is the only clock.
  const exited = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (resolve) => {
      process.on('exit', (code, signal) => {
        // Give the pipes a moment to drain after exit.
        setImmediate(() => resolve({ code, signal, stdout, stderr }));
      });
    },
  );
  return { process, exited };
}

/** The lines of a side-effect log (none when it does not exist yet). */
export function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** Waits until the log has `count` lines; fails if the child exits first (no wall-clock deadline). */
export async function waitForLines(file: string, count: number, child: ChildProcess): Promise<void> {
  while (lines(file).length < count) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the child exited before the side-effect log reached ${count} lines`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
