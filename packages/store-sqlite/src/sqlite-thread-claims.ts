import { randomUUID } from 'node:crypto';
import { type ThreadClaim, threadClaimedError } from '@weft/compose/store';
import type { Database, Statement } from 'better-sqlite3';
import { processAlive, processStart } from './process-identity.js';

interface ClaimRow {
  token: string;
  pid: number;
  process_start: string;
}

/** Claims held by this process, by token: a claim row of this process is live while its token is here. */
const liveTokens = new Set<string>();
let ownStart: string | undefined;

/**
 * Thread claims in a SQLite file: one row per claimed thread naming the holding process. A claim is taken
 * in an immediate transaction (one writer of the file at a time, across processes), and only over no row,
 * a released one, or one whose process is gone — a run killed with SIGKILL leaves a row that the next
 * run takes over, a live run's row refuses everyone else. A SQLite file is only shared by processes of
 * one machine, so the process table is the right judge of liveness.
 */
export class SqliteThreadClaims {
  readonly #db: Database;
  readonly #read: Statement<unknown[], ClaimRow>;
  readonly #write: Statement<unknown[]>;
  readonly #release: Statement<unknown[]>;
  readonly #claim: (threadId: string, token: string) => void;

  constructor(db: Database) {
    this.#db = db;
    this.#read = db.prepare('SELECT token, pid, process_start FROM weft_thread_claims WHERE thread_id = ?');
    this.#write = db.prepare(
      'INSERT OR REPLACE INTO weft_thread_claims (thread_id, token, pid, process_start) VALUES (?, ?, ?, ?)',
    );
    this.#release = db.prepare('DELETE FROM weft_thread_claims WHERE thread_id = ? AND token = ?');
    const claim = db.transaction((threadId: string, token: string) => {
      const held = this.#read.get(threadId);
      if (held !== undefined && isLive(held)) throw threadClaimedError(threadId, `process ${held.pid}`);
      ownStart ??= processStart(process.pid);
      this.#write.run(threadId, token, process.pid, ownStart);
    });
    this.#claim = (threadId, token) => claim.immediate(threadId, token);
  }

  /** Whether a live run (of this or another process) holds the thread; read inside the caller's transaction. */
  isClaimed(threadId: string): boolean {
    const held = this.#read.get(threadId);
    return held !== undefined && isLive(held);
  }

  /** @throws {CheckpointConflictError} when a live run (of this or another process) holds the thread. */
  claim(threadId: string): ThreadClaim {
    const token = randomUUID();
    this.#claim(threadId, token);
    liveTokens.add(token);
    return {
      release: async () => {
        if (!liveTokens.delete(token)) return;
        if (this.#db.open) this.#release.run(threadId, token);
      },
    };
  }
}

function isLive(row: ClaimRow): boolean {
  if (row.pid === process.pid && row.process_start === (ownStart ??= processStart(process.pid)))
    return liveTokens.has(row.token);
  return processAlive(row.pid, row.process_start);
}
