import {
  type CheckpointLink,
  type DeleteOutcome,
  type ListThreadsOptions,
  PAUSED_WRITE_PREFIX,
  type Rebase,
  type RebaseOutcome,
  type ThreadSummary,
} from '@weft/compose/store';
import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { PostgresTables } from './postgres-schema.js';
import type { PostgresThreadClaims } from './postgres-thread-claims.js';

type Query = <TRow extends QueryResultRow>(config: QueryConfig) => Promise<QueryResult<TRow>>;

interface SummaryRow {
  thread_id: string;
  namespaces: string[];
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
  paused: boolean;
}

/** Ids one guarded DELETE takes: each chunk is one short transaction, so a run waits at most that long. */
const CHUNK = 5000;

/**
 * The maintenance side of `PostgresCheckpointer` (see `MaintainableCheckpointer`). A guarded delete is one
 * statement (one transaction) that deletes only when no session holds the thread's advisory lock (read
 * from `pg_locks`, without taking it: a run claiming the thread meanwhile is never refused) and the
 * namespace's head is the planned one. A run that claims the thread during the statement loads the head,
 * which is never deleted, nor is anything it is built on.
 */
export class PostgresMaintenance {
  readonly #query: Query;
  readonly #tables: PostgresTables;
  readonly #claims: PostgresThreadClaims;
  readonly #prefix: string;

  constructor(query: Query, tables: PostgresTables, claims: PostgresThreadClaims, statementPrefix: string) {
    this.#query = query;
    this.#tables = tables;
    this.#claims = claims;
    this.#prefix = statementPrefix;
  }

  async listThreads(options: ListThreadsOptions): Promise<ThreadSummary[]> {
    const { checkpoints, writes } = this.#tables;
    const values: unknown[] = [];
    const where: string[] = [];
    if (options.threadId !== undefined) where.push(`c.thread_id = $${values.push(options.threadId)}`);
    if (options.after !== undefined) where.push(`c.thread_id COLLATE "C" > $${values.push(options.after)}`);
    const limit = options.limit === undefined ? '' : ` LIMIT $${values.push(options.limit)}`;
    const { rows } = await this.#query<SummaryRow>({
      text: `SELECT c.thread_id, array_agg(DISTINCT c.ns) AS namespaces, count(*)::int AS checkpoints,
               (sum(octet_length(c.payload) + octet_length(c.metadata::text)) + coalesce((
                 SELECT sum(octet_length(w.payload)) FROM ${writes} w WHERE w.thread_id = c.thread_id
               ), 0))::float8 AS bytes,
               max(c.created_at) AS last_write_at,
               (SELECT h.metadata ->> 'graph' FROM ${checkpoints} h
                WHERE h.thread_id = c.thread_id AND h.ns = '' ORDER BY h.seq DESC LIMIT 1) AS graph
             FROM ${checkpoints} c ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
             GROUP BY c.thread_id ORDER BY c.thread_id COLLATE "C"${limit}`,
      values,
    });
    return rows.map((row) => ({
      threadId: row.thread_id,
      namespaces: [...row.namespaces].sort(),
      checkpoints: row.checkpoints,
      bytes: row.bytes,
      lastWriteAt: row.last_write_at,
      graph: row.graph ?? undefined,
    }));
  }

  async listLinks(threadId: string, ns: string): Promise<CheckpointLink[]> {
    const { checkpoints, writes } = this.#tables;
    const { rows } = await this.#query<LinkRow>({
      name: `${this.#prefix}_links`,
      text: `SELECT c.id, c.seq, c.parent_id, c.base_id, c.created_at,
               EXISTS (SELECT 1 FROM ${writes} w
                       WHERE w.thread_id = c.thread_id AND w.ns = c.ns AND w.checkpoint_id = c.id
                         AND starts_with(w.payload, $3)) AS paused
             FROM ${checkpoints} c WHERE c.thread_id = $1 AND c.ns = $2 ORDER BY c.seq`,
      values: [threadId, ns, PAUSED_WRITE_PREFIX],
    });
    return rows.map((row) => ({
      id: row.id,
      seq: row.seq,
      parentId: row.parent_id,
      baseId: row.base_id,
      createdAt: row.created_at,
      paused: row.paused,
    }));
  }

  async deleteCheckpoints(
    threadId: string,
    ns: string,
    ids: readonly string[],
    headId: string,
  ): Promise<DeleteOutcome> {
    const { checkpoints, writes } = this.#tables;
    let deleted = 0;
    for (let start = 0; start < ids.length; start += CHUNK) {
      const chunk = ids.slice(start, start + CHUNK);
      const { rows } = await this.#query<{ busy: boolean; head: string | null; deleted: number }>({
        name: `${this.#prefix}_prune`,
        text: `WITH guard AS (
                 SELECT ${this.#claimed('$5')} AS busy,
                        (SELECT id FROM ${checkpoints} WHERE thread_id = $1 AND ns = $2 ORDER BY seq DESC LIMIT 1) AS head
               ), go AS (
                 SELECT NOT busy AND head IS NOT DISTINCT FROM $4 AS ok FROM guard
               ), deleted_writes AS (
                 DELETE FROM ${writes} WHERE thread_id = $1 AND ns = $2 AND checkpoint_id = ANY($3::text[])
                   AND (SELECT ok FROM go)
               ), deleted AS (
                 DELETE FROM ${checkpoints} WHERE thread_id = $1 AND ns = $2 AND id = ANY($3::text[]) AND id <> $4
                   AND (SELECT ok FROM go) RETURNING 1
               )
               SELECT busy, head, (SELECT count(*) FROM deleted)::int AS deleted FROM guard`,
        values: [threadId, ns, chunk, headId, this.#claims.lockKey(threadId)],
      });
      const row = rows[0];
      if (row === undefined || row.busy) return { deleted, skipped: 'busy' };
      if (row.head !== headId) return { deleted, skipped: 'moved' };
      deleted += row.deleted;
    }
    return { deleted };
  }

  async rebaseCheckpoints(
    threadId: string,
    ns: string,
    rebase: Rebase,
    headId: string,
  ): Promise<RebaseOutcome> {
    const { checkpoints } = this.#tables;
    const { rows } = await this.#query<{ busy: boolean; head: string | null; rebased: number }>({
      name: `${this.#prefix}_rebase`,
      text: `WITH guard AS (
               SELECT ${this.#claimed('$8')} AS busy,
                      (SELECT id FROM ${checkpoints} WHERE thread_id = $1 AND ns = $2 ORDER BY seq DESC LIMIT 1) AS head
             ), go AS (
               SELECT NOT busy AND head IS NOT DISTINCT FROM $7 AS ok FROM guard
             ), moved AS (
               UPDATE ${checkpoints} SET base_id = $3
               WHERE thread_id = $1 AND ns = $2 AND id = ANY($6::text[]) AND (SELECT ok FROM go)
             ), snapshot AS (
               UPDATE ${checkpoints} SET payload = $4, checksum = $5, base_id = $3
               WHERE thread_id = $1 AND ns = $2 AND id = $3 AND (SELECT ok FROM go) RETURNING 1
             )
             SELECT busy, head, (SELECT count(*) FROM snapshot)::int AS rebased FROM guard`,
      values: [
        threadId,
        ns,
        rebase.id,
        rebase.payload,
        rebase.checksum,
        rebase.descendants,
        headId,
        this.#claims.lockKey(threadId),
      ],
    });
    const row = rows[0];
    if (row === undefined || row.busy) return { rebased: false, skipped: 'busy' };
    if (row.head !== headId) return { rebased: false, skipped: 'moved' };
    return { rebased: row.rebased === 1 };
  }

  async deleteIdleThread(threadId: string, before: string): Promise<boolean> {
    const { checkpoints, writes } = this.#tables;
    const { rows } = await this.#query<{ ok: boolean }>({
      name: `${this.#prefix}_delete_idle`,
      text: `WITH go AS (
               SELECT NOT ${this.#claimed('$3')}
                      AND (SELECT max(created_at) FROM ${checkpoints} WHERE thread_id = $1) < $2 AS ok
             ), deleted_writes AS (
               DELETE FROM ${writes} WHERE thread_id = $1 AND (SELECT ok FROM go)
             ), deleted AS (
               DELETE FROM ${checkpoints} WHERE thread_id = $1 AND (SELECT ok FROM go) RETURNING 1
             )
             SELECT coalesce((SELECT ok FROM go), false) AND (SELECT count(*) FROM deleted) > 0 AS ok`,
      values: [threadId, before, this.#claims.lockKey(threadId)],
    });
    return rows[0]?.ok === true;
  }

  /** SQL: whether some session of this database holds the advisory lock of the key in `param`. */
  #claimed(param: string): string {
    return `EXISTS (SELECT 1 FROM pg_locks l
                    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                      AND ((l.classid::int8 << 32) | l.objid::int8) = hashtextextended(${param}, 0))`;
  }
}
