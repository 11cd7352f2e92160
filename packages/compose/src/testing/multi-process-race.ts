import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import { buildRaceGraph, buildTickGraph } from './race/race-graphs.js';

/**
 * One shared store for one multi-process test: how this process opens it, the arguments that tell a
 * child process where it is, and how to dispose of it.
 */
export interface SharedStoreFixture {
  /** Opens a client of the shared store in the test process. */
  readonly open: () => Checkpointer;
  /** The store's own arguments to the child script (a file name, or a URL and a schema). */
  readonly childArgs: readonly string[];
  /** Runs after the test: drop the schema, delete the file. */
  readonly cleanup?: () => Promise<void>;
}

/** Options of {@link describeMultiProcessRace}. */
export interface MultiProcessRaceOptions {
  /** The suite's name (the store's). */
  readonly name: string;
  /** The store's child script: parses its own arguments, then calls `runRaceChild` with the rest. */
  readonly childScript: string;
  /** The package folder the child runs in (where `tsx` resolves). */
  readonly cwd: string;
  /** Makes a fresh shared store for one test. */
  readonly fixture: () => Promise<SharedStoreFixture>;
  /** Skips the suite (e.g. no server configured). */
  readonly skip?: boolean;
  /**
   * A command each child runs under, e.g. `['unshare', '--pid', '--fork', '--mount-proc']` to give every
   * child its own PID namespace (containers sharing one volume: each sees only its own processes).
   */
  readonly wrap?: readonly string[];
}

interface RaceEvent {
  readonly event: 'running' | 'done' | 'error';
  readonly thread: string;
  readonly code?: string;
  readonly errorThread?: string;
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/**
 * Registers the multi-process one-writer-per-thread tests every durable store runs (vitest blocks), each
 * against one store shared by real child processes:
 * - two processes resume the same paused thread at the same moment (one approves, one rejects), 20 rounds:
 *   exactly one runs, the other gets `CHECKPOINT_CONFLICT` naming the thread, and every round's side effect
 *   runs once. The winner's `act` node is held until the loser has answered, so the two runs overlap every
 *   round without any timing assumption;
 * - a process whose clock is an hour behind continues a thread: its checkpoints' ids sort before the old
 *   head, yet the next turn continues from the skewed process's last checkpoint and no step runs twice.
 *
 * @example
 * ```ts
 * // packages/my-store/test/race.test.ts — `MyCheckpointer` is your store's checkpointer over a file
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { fileURLToPath } from 'node:url';
 * import type { Checkpointer } from '@weft/compose';
 * import { describeMultiProcessRace } from '@weft/compose/testing';
 * declare const MyCheckpointer: new (options: { filename: string }) => Checkpointer;
 *
 * const packageDir = fileURLToPath(new URL('..', import.meta.url));
 * describeMultiProcessRace({
 *   name: 'MyCheckpointer',
 *   childScript: join(packageDir, 'test', 'race', 'race-child.ts'),
 *   cwd: packageDir,
 *   fixture: async () => {
 *     const filename = join(mkdtempSync(join(tmpdir(), 'race-')), 'weft.db');
 *     return { open: () => new MyCheckpointer({ filename }), childArgs: [filename] };
 *   },
 * });
 * ```
 */
export function describeMultiProcessRace(options: MultiProcessRaceOptions): void {
  describe.skipIf(options.skip === true)(`${options.name} across processes`, () => {
    let directory: string;
    let store: SharedStoreFixture;
    const children: ChildProcess[] = [];

    beforeEach(async () => {
      directory = mkdtempSync(join(tmpdir(), 'weft-race-'));
      store = await options.fixture();
    });

    afterEach(async () => {
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
      await store.cleanup?.();
    });

    const startChild = (args: readonly string[], stdin: 'pipe' | 'ignore'): ChildProcess => {
      const command = [
        ...(options.wrap ?? []),
        process.execPath,
        '--conditions=@weft/source',
        '--import',
        'tsx',
        options.childScript,
        ...store.childArgs,
        ...args,
      ];
      const child = spawn(command[0]!, command.slice(1), {
        cwd: options.cwd,
        stdio: [stdin, 'pipe', 'inherit'],
      });
      children.push(child);
      return child;
    };

    /** Starts a racer; `next(match)` resolves with its next event that matches, as they arrive. */
    const racer = (effects: string, name: string) => {
      const child = startChild(['race', effects], 'pipe');
      const waiting: Array<(event: RaceEvent) => void> = [];
      const seen: RaceEvent[] = [];
      let exited: Error | undefined;
      const failures: Array<(error: Error) => void> = [];
      child.on('exit', (code) => {
        exited = new Error(`racer ${name} exited (${code})`);
        for (const fail of failures.splice(0)) fail(exited);
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const event = JSON.parse(line) as RaceEvent;
        seen.push(event);
        for (const wake of waiting.splice(0)) wake(event);
      });
      const next = (match: (event: RaceEvent) => boolean): Promise<RaceEvent> => {
        const found = seen.find(match);
        if (found) {
          seen.splice(seen.indexOf(found), 1);
          return Promise.resolve(found);
        }
        if (exited) return Promise.reject(exited);
        return new Promise((resolve, reject) => {
          failures.push(reject);
          const check = (event: RaceEvent): void => {
            if (match(event)) {
              seen.splice(seen.indexOf(event), 1);
              resolve(event);
            } else waiting.push(check);
          };
          waiting.push(check);
        });
      };
      const send = (line: string): void => {
        child.stdin!.write(`${line}\n`);
      };
      return { name, next, send };
    };

    it('two processes resuming one paused thread: exactly one runs, the other gets a conflict (20 rounds)', async () => {
      const effects = join(directory, 'effects.log');
      const checkpointer = store.open();
      const setup = buildRaceGraph(checkpointer, effects, async () => {
        throw new Error('the setup run must stop at the question');
      });
      const approve = racer(effects, 'approve');
      const reject = racer(effects, 'reject');
      const winners: string[] = [];
      for (let round = 0; round < 20; round++) {
        const thread = `race-${round}`;
        await setup.invoke({}, { threadId: thread });
        approve.send(`go ${thread} approve`);
        reject.send(`go ${thread} reject`);
        const first = await Promise.race(
          [approve, reject].map(async (side) => ({
            side,
            event: await side.next((event) => event.thread === thread),
          })),
        );
        // Whoever answered first either runs (and waits in `act`) or lost; the other must do the opposite.
        const other = first.side === approve ? reject : approve;
        const second = await other.next((event) => event.thread === thread);
        const events = [first.event, second];
        expect(events.filter((event) => event.event === 'running')).toHaveLength(1);
        expect(events.filter((event) => event.event === 'error')).toEqual([
          { event: 'error', thread, code: 'CHECKPOINT_CONFLICT', errorThread: thread },
        ]);
        const winner = first.event.event === 'running' ? first.side : other;
        winner.send(`release ${thread}`);
        expect(await winner.next((event) => event.thread === thread)).toEqual({ event: 'done', thread });
        winners.push(winner.name);
        expect((await setup.getState(thread))?.values).toEqual({ decision: winner.name });
      }
      // Every round's side effect ran exactly once, by its winner.
      expect(lines(effects)).toEqual(winners.map((name, round) => `race-${round}:${name}`));
      const history = await checkpointer.list('race-0');
      expect(history.map((record) => record.seq)).toEqual([3, 2, 1]);
      await checkpointer.close?.();
    }, 600_000);

    it('a process whose clock is an hour behind continues a thread without any step running twice', async () => {
      const effects = join(directory, 'effects.log');
      const checkpointer = store.open();
      const app = buildTickGraph(checkpointer, effects);
      // The child's clock starts an hour before this first turn did (an absolute reading: a slow child start
      // on a loaded machine cannot catch it up; a 60 s offset once did at load average 100).
      const behind = Date.now() - 3_600_000;
      expect(await app.invoke({ turn: 1 }, { threadId: 'skew' })).toEqual({ n: 30, turn: 1 });
      const child = startChild(['skew', effects, 'skew', String(behind)], 'ignore');
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ n: 60, turn: 2 });
      // The skewed ids sort before the old head; the head is still the skewed process's last checkpoint.
      const head = (await checkpointer.get('skew'))!.checkpoint;
      const older = (await checkpointer.list('skew')).find((record) => record.seq === head.seq - 31)!;
      expect(head.id < older.id).toBe(true);
      expect(await app.invoke({ turn: 3 }, { threadId: 'skew' })).toEqual({ n: 90, turn: 3 });
      expect(lines(effects)).toEqual(Array.from({ length: 90 }, (_, index) => `tick:${index + 1}`));
      await checkpointer.close?.();
    }, 600_000);
  });
}
