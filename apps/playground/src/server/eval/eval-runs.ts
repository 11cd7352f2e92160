import type { Agent } from '@weft/adk';
import { agentTarget, type EvalReport, type EvalSet, runEval } from '@weft/eval';
import type { Database } from 'better-sqlite3';
import type { EvalRunInfo } from '../../shared/eval-wire.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS playground_eval_runs (
  id TEXT PRIMARY KEY,
  set_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  status TEXT NOT NULL,
  repeats INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  report TEXT,
  error TEXT
);
CREATE INDEX IF NOT EXISTS playground_eval_runs_set ON playground_eval_runs (set_id, started_at);
`;

interface Row {
  id: string;
  set_id: string;
  agent_id: string;
  status: EvalRunInfo['status'];
  repeats: number;
  started_at: number;
  finished_at: number | null;
  report: string | null;
  error: string | null;
}

/** What {@link EvalRuns.start} needs. */
export interface StartEvalRun {
  readonly setId: string;
  readonly set: EvalSet;
  readonly agentId: string;
  readonly agent: Agent;
  readonly repeats: number;
}

/**
 * The playground's eval runs: started in this process (fresh sessions and in-memory stores per case,
 * apart from the playground's threads), kept in the playground's SQLite file so runs can be compared
 * after a restart. A run that was still going when the server stopped is marked failed on the next start.
 */
export class EvalRuns {
  readonly #db: Database;
  readonly #live = new Map<string, { progress: { done: number; total: number }; abort: AbortController }>();
  #counter = 0;

  constructor(db: Database) {
    this.#db = db;
    db.exec(SCHEMA);
    db.prepare(
      "UPDATE playground_eval_runs SET status = 'failed', error = 'the server stopped during the run' WHERE status = 'running'",
    ).run();
  }

  /** Starts a run and returns it (status `running`); the report arrives with {@link get}. */
  start(request: StartEvalRun): EvalRunInfo {
    this.#counter += 1;
    const id = `eval-${Date.now().toString(36)}-${this.#counter}`;
    const startedAt = Date.now();
    const total = request.set.cases.length * request.repeats;
    const live = { progress: { done: 0, total }, abort: new AbortController() };
    this.#live.set(id, live);
    this.#db
      .prepare(
        "INSERT INTO playground_eval_runs (id, set_id, agent_id, status, repeats, started_at) VALUES (?, ?, ?, 'running', ?, ?)",
      )
      .run(id, request.setId, request.agentId, request.repeats, startedAt);
    runEval({
      set: request.set,
      target: agentTarget(request.agent),
      repeats: request.repeats,
      signal: live.abort.signal,
      onProgress: (p) => {
        live.progress = { done: p.done, total: p.total };
      },
    }).then(
      (report) => this.#finish(id, { report }),
      (error: unknown) => this.#finish(id, { error: error instanceof Error ? error.message : String(error) }),
    );
    return this.get(id) as EvalRunInfo;
  }

  /** A run by id. */
  get(id: string): EvalRunInfo | undefined {
    const row = this.#db.prepare('SELECT * FROM playground_eval_runs WHERE id = ?').get(id) as
      | Row
      | undefined;
    return row ? this.#info(row) : undefined;
  }

  /** The runs of a set, newest first. */
  list(setId: string): EvalRunInfo[] {
    const rows = this.#db
      .prepare('SELECT * FROM playground_eval_runs WHERE set_id = ? ORDER BY started_at DESC, id DESC')
      .all(setId) as Row[];
    return rows.map((row) => this.#info(row, false));
  }

  /** Stops every running eval (their rows say why). */
  close(): void {
    for (const live of this.#live.values()) live.abort.abort(new Error('the playground is closing'));
  }

  #finish(id: string, outcome: { report?: EvalReport; error?: string }): void {
    this.#live.delete(id);
    try {
      this.#db
        .prepare(
          'UPDATE playground_eval_runs SET status = ?, finished_at = ?, report = ?, error = ? WHERE id = ?',
        )
        .run(
          outcome.report ? 'done' : 'failed',
          Date.now(),
          outcome.report ? JSON.stringify(outcome.report) : null,
          outcome.error ?? null,
          id,
        );
    } catch {
      // The database closed first (the server is shutting down): nothing left to record into.
    }
  }

  #info(row: Row, withReport = true): EvalRunInfo {
    const report = row.report ? (JSON.parse(row.report) as EvalReport) : undefined;
    const total = report ? report.cases.reduce((n, c) => n + c.runs.length, 0) : 0;
    const progress = this.#live.get(row.id)?.progress ?? { done: total, total };
    return {
      id: row.id,
      setId: row.set_id,
      agentId: row.agent_id,
      status: row.status,
      repeats: row.repeats,
      startedAt: row.started_at,
      ...(row.finished_at !== null ? { finishedAt: row.finished_at } : {}),
      progress,
      ...(report && withReport ? { report } : {}),
      ...(report && !withReport ? { report: { ...report, cases: [] } } : {}),
      ...(row.error !== null ? { error: row.error } : {}),
    };
  }
}
