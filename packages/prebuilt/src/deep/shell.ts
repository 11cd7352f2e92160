import { execFile } from 'node:child_process';

/**
 * How a shell command ended.
 *
 * @example
 * ```ts
 * const result: ShellResult = { stdout: 'ok\n', stderr: '', exitCode: 0, timedOut: false, truncated: false };
 * ```
 */
export interface ShellResult {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit code, or `null` when the process was killed. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** The output was longer than the cap and was cut (the process was stopped). */
  readonly truncated: boolean;
}

/**
 * Runs shell commands for a deep agent's `execute` tool. Given to `createDeepAgent` only explicitly —
 * there is no default shell.
 *
 * @example
 * ```ts
 * const echo: Shell = { run: async (command) => ({ stdout: command, stderr: '', exitCode: 0, timedOut: false, truncated: false }) };
 * ```
 */
export interface Shell {
  run(command: string, options?: { readonly signal?: AbortSignal }): Promise<ShellResult>;
}

/** Options of {@link LocalShell}. */
export interface LocalShellOptions {
  /** The working directory of every command. */
  readonly root: string;
  /** Commands are killed after this long (default 60 s). */
  readonly timeoutMs?: number;
  /** stdout and stderr are each cut to this many characters (default 30 000). */
  readonly maxOutputChars?: number;
  /** The shell binary (default `/bin/sh`), run as `shell -c command`. */
  readonly shell?: string;
  /** The environment (default: only `PATH`, `LANG`, and `HOME` set to the root — no secrets of yours). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * A {@link Shell} on this machine: `execFile(shell, ['-c', command])` in the root directory, with a
 * timeout, an output cap and the run's abort signal. It is not a sandbox: commands run with your
 * user's rights, and only their working directory is the root. Use it with approval, or in a container.
 *
 * @example
 * ```ts
 * const shell = new LocalShell({ root: '/tmp/workspace', timeoutMs: 10_000 });
 * const { stdout, exitCode } = await shell.run('ls -la');
 * ```
 */
export class LocalShell implements Shell {
  readonly #options: LocalShellOptions;

  constructor(options: LocalShellOptions) {
    this.#options = options;
  }

  run(command: string, options: { readonly signal?: AbortSignal } = {}): Promise<ShellResult> {
    const { root, timeoutMs = 60_000, maxOutputChars = 30_000, shell = '/bin/sh' } = this.#options;
    const env = this.#options.env ?? {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      HOME: root,
    };
    return new Promise((resolve, reject) => {
      execFile(
        shell,
        ['-c', command],
        {
          cwd: root,
          env,
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: maxOutputChars * 4,
          encoding: 'utf8',
          ...(options.signal ? { signal: options.signal } : {}),
        },
        (error, stdout, stderr) => {
          if (options.signal?.aborted) return reject(options.signal.reason);
          const failure = error as (Error & { code?: unknown; killed?: boolean }) | null;
          const overflow = failure?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
          if (failure && !overflow && typeof failure.code !== 'number' && !failure.killed)
            return reject(failure);
          resolve({
            stdout: stdout.slice(0, maxOutputChars),
            stderr: stderr.slice(0, maxOutputChars),
            exitCode: typeof failure?.code === 'number' ? failure.code : failure ? null : 0,
            timedOut: failure?.killed === true && !overflow,
            truncated: overflow || stdout.length > maxOutputChars || stderr.length > maxOutputChars,
          });
        },
      );
    });
  }
}
