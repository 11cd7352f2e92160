import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Breakpoints, ThreadInfo, ThreadStatus } from '../shared/wire.ts';

interface ThreadRow {
  id: string;
  graph_id: string;
  title: string;
  created_at: string;
  updated_at: string;
  status: string;
  breakpoints: string;
}

const schema = `
CREATE TABLE IF NOT EXISTS playground_threads (
  id TEXT PRIMARY KEY,
  graph_id TEXT NOT NULL,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  status TEXT NOT NULL,
  breakpoints TEXT NOT NULL
)`;

/**
 * The playground's list of threads (which graph each belongs to, its title, last status and
 * breakpoints), in a table next to the checkpoints. Checkpoints themselves stay in the checkpointer.
 *
 * @example
 * ```ts
 * const threads = new ThreadStore(new Database('.weft/weft.db'));
 * const thread = threads.create({ graphId: 'loop' });
 * ```
 */
export class ThreadStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
    db.exec(schema);
    // No run outlives the process that started it: a thread left "running" was cut off.
    db.prepare("UPDATE playground_threads SET status = 'cancelled' WHERE status = 'running'").run();
  }

  /** Creates a thread of a graph. */
  create(options: { readonly graphId: string; readonly title?: string | undefined }): ThreadInfo {
    const now = new Date().toISOString();
    const id = `${options.graphId}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const count = this.#db
      .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM playground_threads WHERE graph_id = ?')
      .get(options.graphId)?.n;
    const title = options.title?.trim() || `${options.graphId} #${(count ?? 0) + 1}`;
    const breakpoints: Breakpoints = { before: [], after: [] };
    this.#db
      .prepare('INSERT INTO playground_threads VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, options.graphId, title, now, now, 'idle', JSON.stringify(breakpoints));
    return {
      id,
      graphId: options.graphId,
      title,
      createdAt: now,
      updatedAt: now,
      status: 'idle',
      breakpoints,
    };
  }

  /** Lists a thread started elsewhere (by a worker client) under its own id; a no-op when known. */
  adopt(id: string, graphId: string): void {
    const now = new Date().toISOString();
    const breakpoints: Breakpoints = { before: [], after: [] };
    this.#db
      .prepare('INSERT OR IGNORE INTO playground_threads VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, graphId, `${graphId} ${id}`, now, now, 'idle', JSON.stringify(breakpoints));
  }

  /** One thread, or undefined. */
  get(id: string): ThreadInfo | undefined {
    const row = this.#db
      .prepare<[string], ThreadRow>('SELECT * FROM playground_threads WHERE id = ?')
      .get(id);
    return row ? toThread(row) : undefined;
  }

  /** Threads, most recently updated first; only a graph's when `graphId` is given. */
  list(graphId?: string): ThreadInfo[] {
    const rows =
      graphId === undefined
        ? this.#db.prepare<[], ThreadRow>('SELECT * FROM playground_threads ORDER BY updated_at DESC').all()
        : this.#db
            .prepare<[string], ThreadRow>(
              'SELECT * FROM playground_threads WHERE graph_id = ? ORDER BY updated_at DESC',
            )
            .all(graphId);
    return rows.map(toThread);
  }

  /** Removes a thread; false when it did not exist. */
  delete(id: string): boolean {
    return this.#db.prepare('DELETE FROM playground_threads WHERE id = ?').run(id).changes > 0;
  }

  /** Records a thread's latest status. */
  setStatus(id: string, status: ThreadStatus): void {
    this.#db
      .prepare('UPDATE playground_threads SET status = ?, updated_at = ? WHERE id = ?')
      .run(status, new Date().toISOString(), id);
  }

  /** Replaces a thread's breakpoints. */
  setBreakpoints(id: string, breakpoints: Breakpoints): ThreadInfo | undefined {
    this.#db
      .prepare('UPDATE playground_threads SET breakpoints = ?, updated_at = ? WHERE id = ?')
      .run(JSON.stringify(breakpoints), new Date().toISOString(), id);
    return this.get(id);
  }
}

function toThread(row: ThreadRow): ThreadInfo {
  return {
    id: row.id,
    graphId: row.graph_id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    status: row.status as ThreadStatus,
    breakpoints: JSON.parse(row.breakpoints) as Breakpoints,
  };
}
