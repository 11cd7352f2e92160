import { randomUUID } from 'node:crypto';
import { claimLostError, type ThreadClaim, threadClaimedError } from '@weft/compose/store';
import type { Database, Statement } from 'better-sqlite3';
import { OwnerLock, ownerAlive } from './owner-lock.js';
import { processAlive, processStart } from './process-identity.js';

interface ClaimRow {
  token: string;
  pid: number;
  process_start: string;
  epoch: number;
  owner: string;
}

/** A claim this checkpointer holds: its token, epoch and the signal that reports its loss. */
interface HeldClaim {
  readonly token: string;
  readonly epoch: number;
  readonly controller: AbortController;
}

/** Tokens of the claims held in this process (by any checkpointer on any file). */
const liveTokens = new Set<string>();
/** Owner ids of this process's checkpointers: their rows are judged by `liveTokens`, not by a lock. */
const liveOwners = new Set<string>();
let ownStart: string | undefined;

/**
 * Thread claims in a SQLite file, fenced by an epoch the file keeps (ADR 030): one row per thread, which
 * outlives its release and counts the thread's claims. A claim is taken in an immediate transaction (one
 * writer of the file at a time, across processes) over no row, a released one, or one whose owner is
 * gone; it gets the next epoch and a fresh token. Every write of the holder (`check`, called by the
 * checkpointer inside the write's transaction) and the engine's check before each step compare the row's
 * token with the holder's: a holder whose thread was taken over is told (`lost` aborts) and writes nothing.
 *
 * Liveness is an OS lock, not a pid: each checkpointer holds an exclusive lock on its own owner file
 * beside the database (see {@link OwnerLock}), which the kernel drops when the process dies. Processes in
 * different PID namespaces (containers sharing a volume) see each other's locks, where a pid check saw
 * the other container's process as dead.
 */
export class SqliteThreadClaims {
  readonly #db: Database;
  readonly #read: Statement<unknown[], ClaimRow>;
  readonly #write: Statement<unknown[]>;
  readonly #release: Statement<unknown[]>;
  readonly #claim: (threadId: string, token: string) => number;
  readonly #held = new Map<string, HeldClaim>();
  readonly #owner: OwnerLock;

  constructor(db: Database) {
    this.#db = db;
    this.#owner = new OwnerLock(db.name, db.memory);
    this.#read = db.prepare(
      'SELECT token, pid, process_start, epoch, owner FROM weft_thread_claims WHERE thread_id = ?',
    );
    this.#write = db.prepare(
      `INSERT OR REPLACE INTO weft_thread_claims (thread_id, token, pid, process_start, epoch, owner)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#release = db.prepare("UPDATE weft_thread_claims SET token = '' WHERE thread_id = ? AND token = ?");
    const claim = db.transaction((threadId: string, token: string): number => {
      const held = this.#read.get(threadId);
      if (held !== undefined && held.token !== '' && this.#isLive(held))
        throw threadClaimedError(threadId, `process ${held.pid}`);
      ownStart ??= processStart(process.pid);
      const epoch = (held?.epoch ?? 0) + 1;
      this.#write.run(threadId, token, process.pid, ownStart, epoch, this.#owner.id);
      return epoch;
    });
    this.#claim = (threadId, token) => claim.immediate(threadId, token);
  }

  /** Whether a live run (of this or another process) holds the thread; read inside the caller's transaction. */
  isClaimed(threadId: string): boolean {
    const held = this.#read.get(threadId);
    return held !== undefined && held.token !== '' && this.#isLive(held);
  }

  /** @throws {CheckpointConflictError} when a live run (of this or another process) holds the thread. */
  claim(threadId: string): ThreadClaim {
    if (this.#held.has(threadId)) throw threadClaimedError(threadId);
    this.#owner.hold();
    liveOwners.add(this.#owner.id);
    const token = randomUUID();
    const epoch = this.#claim(threadId, token);
    const controller = new AbortController();
    const held: HeldClaim = { token, epoch, controller };
    this.#held.set(threadId, held);
    liveTokens.add(token);
    return {
      epoch,
      lost: controller.signal,
      verify: () => {
        if (this.#held.get(threadId) === held && this.#db.open) this.check(threadId);
      },
      release: async () => {
        if (!liveTokens.delete(token)) return;
        if (this.#held.get(threadId) === held) this.#held.delete(threadId);
        if (this.#db.open) this.#release.run(threadId, token);
      },
    };
  }

  /** True when this checkpointer holds a claim on the thread (its writes are then fenced by `check`). */
  holds(threadId: string): boolean {
    return this.#held.has(threadId);
  }

  /**
   * The write fence: throws (and reports the loss on the claim's `lost`) when this checkpointer holds
   * the thread's claim but the file says another claim took it over. Call it inside the write's
   * transaction, so no takeover lands between the check and the write.
   *
   * @throws {CheckpointConflictError} when the claim was lost.
   */
  check(threadId: string): void {
    const held = this.#held.get(threadId);
    if (held === undefined) return;
    const row = this.#read.get(threadId);
    if (row?.token === held.token) return;
    const by =
      row === undefined || row.token === '' ? 'the claim was removed' : `taken over at epoch ${row.epoch}`;
    const error = claimLostError(threadId, `epoch ${held.epoch}, ${by}`);
    this.#held.delete(threadId);
    held.controller.abort(error);
    throw error;
  }

  /** Gives up the owner lock (the checkpointer's `close`): claims still recorded become free to take. */
  close(): void {
    liveOwners.delete(this.#owner.id);
    for (const held of this.#held.values()) liveTokens.delete(held.token);
    this.#held.clear();
    this.#owner.close();
  }

  #isLive(row: ClaimRow): boolean {
    if (row.owner === '') return legacyLive(row);
    if (liveOwners.has(row.owner)) return liveTokens.has(row.token);
    return this.#owner.shared && ownerAlive(this.#owner.directory, row.owner);
  }
}

/** A row written before schema 8 (no owner): judged by its process, as it was then. */
function legacyLive(row: ClaimRow): boolean {
  if (row.pid === process.pid && row.process_start === (ownStart ??= processStart(process.pid)))
    return liveTokens.has(row.token);
  return processAlive(row.pid, row.process_start);
}
