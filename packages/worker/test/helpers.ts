import { PostgresCheckpointer } from '@weft/store-postgres';
import pg from 'pg';

export const redisUrl = process.env.WEFT_REDIS_URL ?? '';
export const pgUrl = process.env.WEFT_PG_URL ?? '';
/** True when a scenario cannot run here (it is skipped, visibly). */
export const missingServices = redisUrl === '' || pgUrl === '';

if (missingServices) {
  const missing = [redisUrl === '' && 'WEFT_REDIS_URL', pgUrl === '' && 'WEFT_PG_URL']
    .filter(Boolean)
    .join(' and ');
  console.warn(
    `${missing} not set: skipping the @weft/worker scenario tests (e.g. WEFT_REDIS_URL=redis://127.0.0.1:6379 WEFT_PG_URL=postgres://postgres@127.0.0.1:5432/test)`,
  );
}

let counter = 0;
/** A name unique to this test run (pid + time + counter): queues, schemas, threads. */
export function unique(label: string): string {
  counter += 1;
  return `${label}-${process.pid.toString(36)}${Date.now().toString(36)}-${counter}`;
}

/** A checkpointer on a schema of its own, set up; `drop()` removes the schema and closes the pool. */
export async function freshCheckpointer(): Promise<{
  checkpointer: PostgresCheckpointer;
  schema: string;
  drop: () => Promise<void>;
}> {
  const schema = unique('weft_worker').replaceAll('-', '_');
  const checkpointer = new PostgresCheckpointer({ connectionString: pgUrl, schema });
  await checkpointer.setup();
  return {
    checkpointer,
    schema,
    async drop() {
      await checkpointer.close();
      const pool = new pg.Pool({ connectionString: pgUrl });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

export { spawnWorker, type WorkerProcess } from './fixtures/spawn-worker.js';

/** One entry of a thread's test log: a lease taken, or a task run. */
export type LogEntry =
  | { readonly kind: 'lease'; readonly worker: string }
  | { readonly kind: 'node'; readonly worker: string; readonly step: number; readonly node: string };

/** Parses a thread's log list (see fixtures/graphs.ts). */
export function parseLog(lines: readonly string[]): LogEntry[] {
  return lines.map((line) => {
    const [kind, worker = '', step = '', node = ''] = line.split('|');
    return kind === 'lease' ? { kind: 'lease', worker } : { kind: 'node', worker, step: Number(step), node };
  });
}

/**
 * Checks one thread's log: every task ran under the lease most recently taken (so no two workers ran
 * the thread at once), and returns the tasks that ran more than once, by `step:node`.
 */
export function checkThreadLog(entries: readonly LogEntry[]): { overlaps: string[]; repeats: string[] } {
  const overlaps: string[] = [];
  const seen = new Map<string, number>();
  let holder: string | undefined;
  for (const entry of entries) {
    if (entry.kind === 'lease') holder = entry.worker;
    else {
      if (entry.worker !== holder)
        overlaps.push(`${entry.worker} ran step ${entry.step} while ${holder} held the lease`);
      const key = `${entry.step}:${entry.node}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  return { overlaps, repeats: [...seen].filter(([, n]) => n > 1).map(([key]) => key) };
}
