import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, expect, it } from 'vitest';
import type { ArtifactService } from '../artifact/artifact-service.js';
import { WRITER_SESSION } from './artifact-writer-child.js';

/** Options of {@link describeArtifactSavesAcrossProcesses}. */
export interface ArtifactProcessesOptions {
  readonly name: string;
  /** A script calling `runArtifactWriterChild` (run with tsx and the `@weft/source` condition). */
  readonly childScript: string;
  /** Where the children run (the package directory). */
  readonly cwd: string;
  /** Fresh storage: the children's leading arguments, a service over it for checking, and cleanup. */
  readonly fixture: () => Promise<{
    readonly childArgs: readonly string[];
    readonly open: () => Promise<ArtifactService>;
    readonly cleanup?: () => Promise<void>;
  }>;
}

/** Starts a child; resolves its lines one by one. */
function startWriter(options: ArtifactProcessesOptions, args: readonly string[]) {
  const child = spawn(
    'node',
    ['--conditions=@weft/source', '--import', 'tsx', options.childScript, ...args],
    {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  const waiting: Array<() => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiting.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const nextLine = async (): Promise<string> => {
    while (lines.length === 0) {
      const more = new Promise<void>((resolve) => waiting.push(resolve));
      const code = await Promise.race([more.then(() => undefined), exited]);
      if (code !== undefined && lines.length === 0) throw new Error(`an artifact writer exited (${code})`);
    }
    return lines.shift() as string;
  };
  return { child, nextLine };
}

/**
 * Registers a test in which two real processes save one artifact name at once over the same storage
 * (a SQLite file, a PostgreSQL schema…): both start, then both save `count` times together; every save
 * must get its own version and still be there, under that version, afterwards.
 *
 * @example
 * ```ts
 * import { join } from 'node:path';
 * import { StoreArtifactService } from '@weft/adk';
 * import { MemoryStore } from '@weft/compose';
 * const packageDir = process.cwd();
 * // the child script calls runArtifactWriterChild over your storage, opened from its arguments
 * describeArtifactSavesAcrossProcesses({
 *   name: 'StoreArtifactService on my store',
 *   childScript: join(packageDir, 'test', 'artifacts', 'artifact-writer.ts'),
 *   cwd: packageDir,
 *   fixture: async () => ({
 *     childArgs: ['my-store-url'],
 *     open: async () => new StoreArtifactService({ store: new MemoryStore() }), // the same storage, here
 *   }),
 * });
 * ```
 */
export function describeArtifactSavesAcrossProcesses(options: ArtifactProcessesOptions, count = 25): void {
  const children: ChildProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it(`${options.name}: two processes saving one name at once get distinct versions, none overwritten`, async () => {
    const fixture = await options.fixture();
    if (fixture.cleanup) cleanups.push(fixture.cleanup);
    const writers = ['a', 'b'].map((label) =>
      startWriter(options, [...fixture.childArgs, label, String(count)]),
    );
    children.push(...writers.map((w) => w.child));
    for (const writer of writers) expect(await writer.nextLine()).toBe('ready');
    for (const writer of writers) writer.child.stdin?.end('go\n');
    const given = await Promise.all(writers.map(async (w) => JSON.parse(await w.nextLine()) as number[]));
    const all = given.flat().sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: 2 * count }, (_, i) => i));
    const service = await fixture.open();
    for (const [w, label] of ['a', 'b'].entries()) {
      for (const [i, version] of (given[w] ?? []).entries()) {
        const loaded = await service.load(WRITER_SESSION, 'shared.txt', { version });
        expect(new TextDecoder().decode(loaded?.data)).toBe(`writer ${label} save ${i}`);
      }
    }
  }, 600_000);
}
