// CPU time of the servers a worker run uses, read from /proc (Linux, servers on this machine): the
// PostgreSQL backends of one application name (our pool's connections) and the whole redis-server
// process (shared with anything else using it, so an upper bound).
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU of process `pid` in ms, or 0 when it is gone or unreadable. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command: state is [0], so utime (14th) is [11] and stime (15th) is [12].
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The pid of the process whose command is `command` (the first one), if there is one. */
function pidOf(command: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** Redis's CPU in ms so far (0 when it does not run on this machine). */
export function redisCpuMs(): number {
  const pid = pidOf('redis-server');
  return pid === undefined ? 0 : processCpuMs(pid);
}

/**
 * The CPU in ms the PostgreSQL backends of `applicationName` spent since they started (0 when the
 * server is not on this machine). Backends live as long as the pool keeps their connections.
 */
export async function postgresCpuMs(pool: pg.Pool, applicationName: string): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
    [applicationName],
  );
  return rows.reduce((sum, { pid }) => sum + processCpuMs(pid), 0);
}
