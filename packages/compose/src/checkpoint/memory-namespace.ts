import { seqTakenError } from './checkpoint-conflicts.js';
import { checkpointExistsError } from './checkpoint-exists-error.js';
import type { CheckpointRecord, JsonValue, TaskWritesRecord } from './checkpointer.js';
import { type DeferredCheckpoint, materialize } from './deferred-checkpoint.js';
import type { Rebase } from './maintenance/checkpoint-maintenance.js';
import { payloadChecksum } from './payload-checksum.js';

/** One stored checkpoint: the record without metadata, metadata as JSON text (as a database holds it). */
export interface CheckpointRow {
  /** The record's columns (metadata is read from the two fields below). */
  record: Omit<CheckpointRecord, 'metadata'>;
  /** A handed-over record whose checksum (`''`) the store stamps when the row is first read. */
  stamp: boolean;
  /** Metadata of a record the engine handed over, not written as JSON until something reads it. */
  metadata: CheckpointRecord['metadata'] | undefined;
  /** The metadata as JSON text (`''` while {@link CheckpointRow.metadata} holds it unwritten). */
  metadataJson: string;
  /** UTF-8 bytes of the payload and metadata: counted when `storedBytes` first asks, not on every `put`. */
  bytes: number | undefined;
}

/** A row as stored: a deferred checkpoint until it is first read. */
type StoredRow = CheckpointRow | DeferredCheckpoint;

/**
 * The checkpoints and task writes of one thread's namespace in a `MemoryCheckpointer`, in `seq` order.
 * Rows are kept by position; the id → `seq` index that `get(id)`, `list({ before })` and the duplicate-id
 * check read is built for the rows appended since it was last read, when it is read: a run that only
 * appends hashes no id per step. A record the engine hands over (`owned`) carries an id the engine made
 * (`sortableId`, unique in the process), so it is checked against the index only once a record came
 * through the public `put` (whose id anyone may choose); a public `put` is always checked.
 *
 * @example
 * ```ts
 * declare const record: CheckpointRecord;
 * const rows = new MemoryNamespace('thread-1', '');
 * rows.add(record, false); // a public put: copied, its id checked
 * const latest = toRecord(rows.row(rows.size - 1));
 * ```
 */
export class MemoryNamespace {
  /** checkpoint id → task id → writes, each map in insertion order. */
  readonly writes = new Map<string, Map<string, TaskWritesRecord>>();
  /** `seq` of each row, ascending. */
  readonly #seqs: number[] = [];
  /** The rows, at the positions of their `seq` in {@link #seqs}. */
  readonly #rows: StoredRow[] = [];
  /** id → `seq` of the rows before position {@link #indexed}. */
  readonly #index = new Map<string, number>();
  #indexed = 0;
  /** Whether a record came through the public `put` (see the class). */
  #foreign = false;

  constructor(
    readonly threadId: string,
    readonly ns: string,
  ) {}

  /** How many checkpoints it holds. */
  get size(): number {
    return this.#rows.length;
  }

  /**
   * Stores a record: an owned one (handed over by the engine) as it is, any other as a copy.
   *
   * @throws {WeftError} code `CHECKPOINT` when the id already exists here.
   * @throws {CheckpointConflictError} when `record.seq` is already taken here.
   */
  add(record: CheckpointRecord | DeferredCheckpoint, owned: boolean): void {
    const { threadId, ns } = this;
    const { id, seq } = record;
    if (!owned) this.#foreign = true;
    if (this.#foreign && this.position(id) !== undefined) throw checkpointExistsError({ threadId, ns, id });
    const seqs = this.#seqs;
    const position = lowerBound(seqs, seq);
    if (seqs[position] === seq) throw seqTakenError({ threadId, ns, id, seq });
    const row = storedRow(record, owned);
    // A run appends: its seq is the thread's highest, so a push (a splice costs more) keeps the order.
    if (position === seqs.length) {
      seqs.push(seq);
      this.#rows.push(row);
      return;
    }
    this.#indexAll();
    seqs.splice(position, 0, seq);
    this.#rows.splice(position, 0, row);
    this.#index.set(id, seq);
    this.#indexed++;
  }

  /** The position of the checkpoint `id`, or `undefined` when it is not here. */
  position(id: string): number | undefined {
    this.#indexAll();
    const seq = this.#index.get(id);
    return seq === undefined ? undefined : lowerBound(this.#seqs, seq);
  }

  /** The row at `position` (0 ≤ position < size), a deferred checkpoint made into its row for good. */
  row(position: number): CheckpointRow {
    const row = this.#rows[position] as StoredRow;
    if (!isDeferred(row)) return row;
    const made = ownedRow(materialize(row));
    this.#rows[position] = made;
    return made;
  }

  /** The `baseId` of the checkpoint at `position`, read without making a deferred one's record. */
  baseIdAt(position: number): string {
    const row = this.#rows[position] as StoredRow;
    return isDeferred(row) ? row.baseId : row.record.baseId;
  }

  /**
   * Makes the checkpoint `rebase.id` a snapshot and moves `rebase.descendants` onto it (see
   * `MaintainableCheckpointer.rebaseCheckpoints`); false when it is not here.
   */
  rebase(rebase: Rebase): boolean {
    const at = this.position(rebase.id);
    if (at === undefined) return false;
    const target = this.row(at);
    target.record = {
      ...target.record,
      payload: rebase.payload,
      checksum: rebase.checksum,
      baseId: rebase.id,
    };
    target.stamp = false;
    target.bytes = undefined;
    for (const id of rebase.descendants) {
      const position = this.position(id);
      if (position === undefined) continue;
      const row = this.row(position);
      row.record = { ...row.record, baseId: rebase.id };
    }
    return true;
  }

  /** Removes the checkpoints `ids` (and the task writes saved against them); resolves with how many were here. */
  remove(ids: ReadonlySet<string>): number {
    this.#indexAll();
    let removed = 0;
    let kept = 0;
    for (let position = 0; position < this.#rows.length; position++) {
      const row = this.#rows[position] as StoredRow;
      const id = isDeferred(row) ? row.id : row.record.id;
      if (ids.has(id)) {
        removed++;
        this.#index.delete(id);
        this.writes.delete(id);
        continue;
      }
      this.#rows[kept] = row;
      this.#seqs[kept] = this.#seqs[position] as number;
      kept++;
    }
    this.#rows.length = kept;
    this.#seqs.length = kept;
    this.#indexed = kept;
    return removed;
  }

  #indexAll(): void {
    const rows = this.#rows;
    const seqs = this.#seqs;
    for (let position = this.#indexed; position < rows.length; position++) {
      const row = rows[position] as StoredRow;
      this.#index.set(isDeferred(row) ? row.id : row.record.id, seqs[position] as number);
    }
    this.#indexed = rows.length;
  }
}

/**
 * The record a row stands for, as a fresh copy (its checksum stamped on first read when left to the store).
 *
 * @example
 * ```ts
 * declare const rows: MemoryNamespace;
 * const record = toRecord(rows.row(0)); // metadata parsed anew: the caller may change it
 * ```
 */
export function toRecord(row: CheckpointRow): CheckpointRecord {
  if (row.stamp) {
    row.record = { ...row.record, checksum: payloadChecksum(row.record.payload) };
    row.stamp = false;
  }
  return { ...row.record, metadata: JSON.parse(metadataJsonOf(row)) as Record<string, JsonValue> };
}

/**
 * The row's metadata as JSON text, written now if it was kept unwritten.
 *
 * @example
 * ```ts
 * declare const rows: MemoryNamespace;
 * metadataJsonOf(rows.row(0)); // '{"step":0,"source":"loop","writes":["a"],"parents":{}}'
 * ```
 */
export function metadataJsonOf(row: CheckpointRow): string {
  if (row.metadata !== undefined) {
    row.metadataJson = JSON.stringify(row.metadata);
    row.metadata = undefined;
  }
  return row.metadataJson;
}

function isDeferred(row: CheckpointRecord | StoredRow): row is DeferredCheckpoint {
  return 'run' in row;
}

/**
 * What {@link MemoryNamespace.add} keeps of a record. Only the engine hands over (`owned`) deferred
 * checkpoints: a public `put`'s record is a `CheckpointRecord`, whatever fields it carries.
 */
function storedRow(record: CheckpointRecord | DeferredCheckpoint, owned: boolean): StoredRow {
  if (!owned) {
    const given = record as CheckpointRecord;
    return {
      record: storedRecord(given),
      stamp: false,
      metadata: undefined,
      metadataJson: JSON.stringify(given.metadata),
      bytes: undefined,
    };
  }
  if (isDeferred(record)) {
    keepFlat(record.writes);
    keepFlat(record.id);
    return record;
  }
  keepFlat(record.payload);
  return ownedRow(record);
}

/** The row of a record handed over: kept as it is, metadata written and checksum stamped when first read. */
function ownedRow(record: CheckpointRecord): CheckpointRow {
  return {
    record,
    stamp: record.checksum === '',
    metadata: record.metadata,
    metadataJson: '',
    bytes: undefined,
  };
}

/**
 * The record's columns without its metadata, as one literal: a rest-spread (`{ metadata, ...rest }`) and a
 * second spread cost more than the rest of `put`. A record without a checksum (an old row) stays without.
 */
function storedRecord(record: CheckpointRecord): Omit<CheckpointRecord, 'metadata'> {
  const { threadId, ns, id, seq, parentId, baseId, step, source, createdAt, payload, checksum } = record;
  return checksum === undefined
    ? { threadId, ns, id, seq, parentId, baseId, step, source, createdAt, payload }
    : { threadId, ns, id, seq, parentId, baseId, step, source, createdAt, payload, checksum };
}

/** Where {@link keepFlat} puts the character it reads, so the read is not optimized away. */
let firstCode = 0;

/**
 * Has V8 flatten a string built by concatenation (reading a character of a concatenated string does):
 * the row then holds one flat string, not the tree of pieces it was joined from — measured 788 against
 * 1027 bytes held per checkpoint of the bench's loop for payloads, 427 → 315 for a deferred checkpoint's
 * writes text and id.
 */
function keepFlat(text: string): void {
  firstCode = text.charCodeAt(0) | firstCode;
}

/** Index of the first seq that is not less than `seq` (seqs ascending). */
function lowerBound(seqs: readonly number[], seq: number): number {
  let low = 0;
  let high = seqs.length;
  if (high === 0 || (seqs[high - 1] as number) < seq) return high;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((seqs[middle] as number) < seq) low = middle + 1;
    else high = middle;
  }
  return low;
}
