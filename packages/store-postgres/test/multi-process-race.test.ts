import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresCheckpointer } from '../src/postgres-checkpointer.js';
import { buildRaceGraph, buildTickGraph } from './race/race-graph.js';

/**
 * One writer per thread across processes, on one PostgreSQL schema: two processes resume the same paused thread
 * at the same moment (one approves, one rejects), 20 rounds. The winner's `act` node is held until the
 * loser has answered, so the two runs overlap every round without any timing assumption.
 */

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const url = process.env.WEFT_PG_URL ?? '';
if (url === '') console.warn('WEFT_PG_URL is not set: skipping the PostgreSQL multi-process race tests');
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;
let directory: string;
let schema: string;
let pool: pg.Pool;
const children: ChildProcess[] = [];

beforeEach(async () => {
  if (url === '') return;
  directory = mkdtempSync(join(tmpdir(), 'weft-race-'));
  schema = `weft_race_${runId}_${++schemaCount}`;
  pool = new pg.Pool({ connectionString: url, max: 4 });
  await new PostgresCheckpointer({ pool, schema }).setup();
});

afterEach(async () => {
  if (url === '') return;
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

interface RaceEvent {
  readonly event: 'running' | 'done' | 'error';
  readonly thread: string;
  readonly code?: string;
  readonly errorThread?: string;
}

/** Starts a racer; `events(thread)` resolves with that thread's events as they arrive. */
function racer(effects: string, name: string) {
  const child = spawn(
    'node',
    [
      '--conditions=@weft/source',
      '--import',
      'tsx',
      join(packageDir, 'test', 'race', 'race-child.ts'),
      url,
      schema,
      effects,
    ],
    { cwd: packageDir, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(child);
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
  return { name, child, next, send };
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

describe.skipIf(url === '')('PostgresCheckpointer across processes', () => {
  it('two processes resuming one paused thread: exactly one runs, the other gets a conflict (20 rounds)', async () => {
    const effects = join(directory, 'effects.log');
    const store = new PostgresCheckpointer({ pool, schema });
    const setup = buildRaceGraph(store, effects, async () => {
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
      const running = events.filter((event) => event.event === 'running');
      const lost = events.filter((event) => event.event === 'error');
      expect(running).toHaveLength(1);
      expect(lost).toEqual([{ event: 'error', thread, code: 'CHECKPOINT_CONFLICT', errorThread: thread }]);
      const winner = first.event.event === 'running' ? first.side : other;
      winner.send(`release ${thread}`);
      expect(await winner.next((event) => event.thread === thread)).toEqual({ event: 'done', thread });
      winners.push(winner.name);
      expect((await setup.getState(thread))?.values).toEqual({ decision: winner.name });
    }
    // Every round's side effect ran exactly once, by its winner.
    expect(lines(effects)).toEqual(winners.map((name, round) => `race-${round}:${name}`));
    const history = await store.list('race-0');
    expect(history.map((record) => record.seq)).toEqual([3, 2, 1]);
    await store.close();
    console.log(`race test: approve won ${winners.filter((name) => name === 'approve').length} of 20 rounds`);
  }, 180_000);

  it('a process whose clock is 60 s behind continues a thread without any step running twice', async () => {
    const effects = join(directory, 'effects.log');
    const store = new PostgresCheckpointer({ pool, schema });
    const app = buildTickGraph(store, effects);
    expect(await app.invoke({ turn: 1 }, { threadId: 'skew' })).toEqual({ n: 30, turn: 1 });
    const child = spawn(
      'node',
      [
        '--conditions=@weft/source',
        '--import',
        'tsx',
        join(packageDir, 'test', 'race', 'skew-child.ts'),
        url,
        schema,
        effects,
        'skew',
        '-60000',
      ],
      { cwd: packageDir, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ n: 60, turn: 2 });
    // The skewed ids sort before the old head; the head is still the skewed process's last checkpoint.
    const head = (await store.get('skew'))!.checkpoint;
    const older = (await store.list('skew')).find((record) => record.seq === head.seq - 31)!;
    expect(head.id < older.id).toBe(true);
    expect(await app.invoke({ turn: 3 }, { threadId: 'skew' })).toEqual({ n: 90, turn: 3 });
    expect(lines(effects)).toEqual(Array.from({ length: 90 }, (_, index) => `tick:${index + 1}`));
    await store.close();
  }, 120_000);
});
