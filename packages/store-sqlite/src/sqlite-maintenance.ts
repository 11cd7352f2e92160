import {
  type CheckpointLink,
  type DeleteOutcome,
  type ListThreadsOptions,
  PAUSED_WRITE_PREFIX,
  type Rebase,
  type RebaseOutcome,
  type ThreadSummary,
} from '@weft/compose/store';
import type { Database, Statement } from 'better-sqlite3';
import type { SqliteThreadClaims } from './sqlite-thread-claims.js';

interface SummaryRow {
  thread_id: string;
  namespaces: string;
  checkpoints: number;
  bytes: number;
  last_write_at: string;
  graph: string | null;
}

interface LinkRow {
  id: string;
  seq: number;
  parent_id: string | null;
  base_id: string;
  created_at: string;
  paused: number;
}

/** How many ids one DELETE binds (SQLite's default limit is 32,766 variables). */
const CHUNK = 500;

/**
 * The maintenance side of `SqliteCheckpointer` (see `MaintainableCheckpointer`): thread summaries, chain
 * links, and guarded deletes run in one immediate transaction that first reads the thread's claim and the
 * namespace's head, so a run that claims the thread waits for it (SQLite's busy timeout) and then loads
 * what is left.
 */
export class SqliteMaintenance {
  readonly #db: Database;
  readonly #claims: SqliteThreadClaims;
  readonly #links: Statement<unknown[], LinkRow>;
  readonly #head: Statement<unknown[], { id: string }>;
  readonly #lastWrite: Statement<unknown[], { last: string | null }>;
  readonly #snapshot: Statement<unknown[]>;
  readonly #moveBase: Statement<unknown[]>;
  readonly #deleteThread: (threadId: string) => void;
  readonly #deleteChunks = new Map<number, readonly [Statement<unknown[]>, Statement<unknown[]>]>();

  constructor(db: Database, claims: SqliteThreadClaims, deleteThread: (threadId: string) => void) {
    this.#db = db;
    this.#claims = claims;
    this.#deleteThread = deleteThread;
    this.#links = db.prepare(
      `SELECT c.id, c.seq, c.parent_id, c.base_id, c.created_at,
              EXISTS (SELECT 1 FROM weft_checkpoint_writes w
                      WHERE w.thread_id = c.thread_id AND w.ns = c.ns AND w.checkpoint_id = c.id
                        AND substr(w.payload, 1, ${PAUSED_WRITE_PREFIX.length}) = ?) AS paused
       FROM weft_checkpoints c WHERE c.thread_id = ? AND c.ns = ? ORDER BY c.seq`,
    );
    this.#head = db.prepare(
      'SELECT id FROM weft_checkpoints WHERE thread_id = ? AND ns = ? ORDER BY seq DESC LIMIT 1',
    );
    this.#snapshot = db.prepare(
      'UPDATE weft_checkpoints SET payload = ?, checksum = ?, base_id = ? WHERE thread_id = ? AND ns = ? AND id = ?',
    );
    this.#moveBase = db.prepare(
      'UPDATE weft_checkpoints SET base_id = ? WHERE thread_id = ? AND ns = ? AND id = ?',
    );
    this.#lastWrite = db.prepare('SELECT max(created_at) AS last FROM weft_checkpoints WHERE thread_id = ?');
  }

  listThreads(options: ListThreadsOptions): ThreadSummary[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (options.threadId !== undefined) {
      where.push('c.thread_id = ?');
      params.push(options.threadId);
    }
    if (options.after !== undefined) {
      where.push('c.thread_id > ?');
      params.push(options.after);
    }
    params.push(options.limit ?? -1);
    const rows = this.#db
      .prepare<unknown[], SummaryRow>(
        `SELECT c.thread_id, json_group_array(DISTINCT c.ns) AS namespaces, count(*) AS checkpoints,
                sum(length(CAST(c.payload AS BLOB)) + length(CAST(c.metadata AS BLOB))) + coalesce((
                  SELECT sum(length(CAST(w.payload AS BLOB))) FROM weft_checkpoint_writes w WHERE w.thread_id = c.thread_id
                ), 0) AS bytes,
                max(c.created_at) AS last_write_at,
                (SELECT json_extract(h.metadata, '$.graph') FROM weft_checkpoints h
                 WHERE h.thread_id = c.thread_id AND h.ns = '' ORDER BY h.seq DESC LIMIT 1) AS graph
         FROM weft_checkpoints c ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         GROUP BY c.thread_id ORDER BY c.thread_id LIMIT ?`,
      )
      .all(...params);
    return rows.map((row) => ({
      threadId: row.thread_id,
      namespaces: (JSON.parse(row.namespaces) as string[]).sort(),
      checkpoints: row.checkpoints,
      bytes: row.bytes,
      lastWriteAt: row.last_write_at,
      graph: typeof row.graph === 'string' ? row.graph : undefined,
    }));
  }

  listLinks(threadId: string, ns: string): CheckpointLink[] {
    return this.#links.all(PAUSED_WRITE_PREFIX, threadId, ns).map((row) => ({
      id: row.id,
      seq: row.seq,
      parentId: row.parent_id,
      baseId: row.base_id,
      createdAt: row.created_at,
      paused: row.paused === 1,
    }));
  }

  deleteCheckpoints(threadId: string, ns: string, ids: readonly string[], headId: string): DeleteOutcome {
    const run = this.#db.transaction((): DeleteOutcome => {
      if (this.#claims.isClaimed(threadId)) return { deleted: 0, skipped: 'busy' };
      if (this.#head.get(threadId, ns)?.id !== headId) return { deleted: 0, skipped: 'moved' };
      let deleted = 0;
      for (let start = 0; start < ids.length; start += CHUNK) {
        const chunk = ids.slice(start, start + CHUNK).filter((id) => id !== headId);
        if (chunk.length > 0) deleted += this.#deleteChunk(threadId, ns, chunk);
      }
      return { deleted };
    });
    return run.immediate();
  }

  rebaseCheckpoints(threadId: string, ns: string, rebase: Rebase, headId: string): RebaseOutcome {
    const run = this.#db.transaction((): RebaseOutcome => {
      if (this.#claims.isClaimed(threadId)) return { rebased: false, skipped: 'busy' };
      if (this.#head.get(threadId, ns)?.id !== headId) return { rebased: false, skipped: 'moved' };
      const { id, payload, checksum, descendants } = rebase;
      const changed = this.#snapshot.run(payload, checksum, id, threadId, ns, id).changes;
      for (const descendant of descendants) this.#moveBase.run(id, threadId, ns, descendant);
      return { rebased: changed === 1 };
    });
    return run.immediate();
  }

  deleteIdleThread(threadId: string, before: string): boolean {
    const run = this.#db.transaction((): boolean => {
      if (this.#claims.isClaimed(threadId)) return false;
      const last = this.#lastWrite.get(threadId)?.last;
      if (last === null || last === undefined || last >= before) return false;
      this.#deleteThread(threadId);
      return true;
    });
    return run.immediate();
  }

  /** Deletes the task writes, then the checkpoints, of `size` ids; resolves with how many checkpoints went. */
  #deleteChunk(threadId: string, ns: string, chunk: readonly string[]): number {
    let statements = this.#deleteChunks.get(chunk.length);
    if (statements === undefined) {
      const marks = chunk.map(() => '?').join(', ');
      statements = [
        this.#db.prepare(
          `DELETE FROM weft_checkpoint_writes WHERE thread_id = ? AND ns = ? AND checkpoint_id IN (${marks})`,
        ),
        this.#db.prepare(`DELETE FROM weft_checkpoints WHERE thread_id = ? AND ns = ? AND id IN (${marks})`),
      ];
      this.#deleteChunks.set(chunk.length, statements);
    }
    const [writes, checkpoints] = statements;
    writes.run(threadId, ns, ...chunk);
    return checkpoints.run(threadId, ns, ...chunk).changes;
  }
}
