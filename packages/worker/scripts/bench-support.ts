// Shared by the measurement scripts: connections, a fresh schema/queue per measurement, and arguments.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PostgresCheckpointer } from '@weft/store-postgres';
import pg from 'pg';
import { deleteQueue } from '../src/index.js';

export const redisUrl = process.env.WEFT_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const pgUrl = process.env.WEFT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Parses `--name value` options with numeric defaults. */
export function numberArgs<TName extends string>(defaults: Record<TName, number>): Record<TName, number> {
  const options = Object.fromEntries(
    Object.keys(defaults).map((name) => [name, { type: 'string' as const }]),
  );
  const { values } = parseArgs({ options, allowPositionals: true, strict: false });
  const parsed = { ...defaults };
  for (const name of Object.keys(defaults) as TName[]) {
    const value = values[name];
    if (typeof value === 'string') parsed[name] = Number(value);
  }
  return parsed;
}

/** A queue name and a set-up checkpoint schema used by one measurement; `cleanup()` removes both. */
export async function scratch(label: string): Promise<{
  queueName: string;
  schema: string;
  checkpointer: PostgresCheckpointer;
  cleanup: () => Promise<void>;
}> {
  const id = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const queueName = `weft-bench-${label}-${id}`;
  const schema = `weft_bench_${label}_${id}`.replaceAll('-', '_');
  const checkpointer = new PostgresCheckpointer({ connectionString: pgUrl, schema });
  await checkpointer.setup();
  return {
    queueName,
    schema,
    checkpointer,
    async cleanup() {
      await checkpointer.close();
      await deleteQueue({ connection: redisUrl, queueName });
      const pool = new pg.Pool({ connectionString: pgUrl });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

/** The machine line printed with every measurement: cores and load (other work skews the figures). */
export function machine(): string {
  const [one, five] = loadavg();
  return `${cpus().length} cores, load average ${one?.toFixed(1)} (1 min) / ${five?.toFixed(1)} (5 min)`;
}
