import type { Database } from 'better-sqlite3';

/** One session of a playground thread: the first one (`parent` absent) or a branch made by a fork. */
export interface SessionBranch {
  readonly sessionId: string;
  readonly threadId: string;
  /** The session the branch's events were copied from. */
  readonly parent?: string;
  /** The checkpoint the branch was made at (its events are those before it). */
  readonly forkedFrom?: string;
  readonly createdAt: string;
}

interface BranchRow {
  session_id: string;
  thread_id: string;
  parent: string | null;
  forked_from: string | null;
  created_at: string;
  seq: number;
}

const schema = `
CREATE TABLE IF NOT EXISTS playground_sessions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL UNIQUE,
  thread_id TEXT NOT NULL,
  parent TEXT,
  forked_from TEXT,
  created_at TEXT NOT NULL
)`;

/**
 * Which sessions each playground thread has (ADR 018): a thread's checkpoints are one tree, its
 * sessions are the branches of that tree an agent committed events on. The newest one is the thread's
 * current session; a fork adds a branch and never rewrites its parent. Kept in a table next to the
 * threads; reads are synchronous (the Runner's `threadOf` asks it).
 *
 * @example
 * ```ts
 * const branches = new SessionBranches(db);
 * branches.current('assistant-x1'); // 'assistant-x1' until a fork adds a branch
 * ```
 */
export class SessionBranches {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
    db.exec(schema);
  }

  /** The thread's current session id: its newest branch, else the thread id (its first session). */
  current(threadId: string): string {
    return this.list(threadId).at(-1)?.sessionId ?? threadId;
  }

  /** The thread's sessions, oldest first (empty until its first fork: the first one is the thread id). */
  list(threadId: string): SessionBranch[] {
    return this.#db
      .prepare<[string], BranchRow>('SELECT * FROM playground_sessions WHERE thread_id = ? ORDER BY seq')
      .all(threadId)
      .map(branchOf);
  }

  /** The thread a session belongs to (a session id that names no branch is a thread's first session). */
  threadOf(sessionId: string): string {
    const row = this.#db
      .prepare<[string], { thread_id: string }>(
        'SELECT thread_id FROM playground_sessions WHERE session_id = ?',
      )
      .get(sessionId);
    return row?.thread_id ?? sessionId;
  }

  /** Records the thread's first session (once), so it is listed next to the branches. */
  ensureFirst(threadId: string): void {
    this.#db
      .prepare(
        'INSERT OR IGNORE INTO playground_sessions (session_id, thread_id, created_at) VALUES (?, ?, ?)',
      )
      .run(threadId, threadId, new Date().toISOString());
  }

  /** Adds a branch session of a thread and makes it the current one. */
  add(branch: {
    readonly threadId: string;
    readonly parent: string;
    readonly forkedFrom: string;
  }): SessionBranch {
    this.ensureFirst(branch.threadId);
    const n = this.list(branch.threadId).length;
    const sessionId = `${branch.threadId}~${n}`;
    const createdAt = new Date().toISOString();
    this.#db
      .prepare(
        'INSERT INTO playground_sessions (session_id, thread_id, parent, forked_from, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(sessionId, branch.threadId, branch.parent, branch.forkedFrom, createdAt);
    return {
      sessionId,
      threadId: branch.threadId,
      parent: branch.parent,
      forkedFrom: branch.forkedFrom,
      createdAt,
    };
  }

  /** Forgets a thread's sessions (the thread was deleted). */
  forget(threadId: string): void {
    this.#db.prepare('DELETE FROM playground_sessions WHERE thread_id = ?').run(threadId);
  }
}

function branchOf(row: BranchRow): SessionBranch {
  return {
    sessionId: row.session_id,
    threadId: row.thread_id,
    ...(row.parent === null ? {} : { parent: row.parent }),
    ...(row.forked_from === null ? {} : { forkedFrom: row.forked_from }),
    createdAt: row.created_at,
  };
}
