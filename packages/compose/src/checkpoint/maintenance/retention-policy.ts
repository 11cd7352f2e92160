import { WeftError } from '../../errors/weft-error.js';
import type { CheckpointLink } from './checkpoint-maintenance.js';

/**
 * What a thread keeps. Every rule drops checkpoints; a checkpoint stays when no rule drops it, and some
 * always stay whatever the rules say: the head of every namespace (a paused or running run continues from
 * it), every checkpoint with a pending interrupt, and what rebuilding a kept checkpoint reads (its chain
 * back to the snapshot it builds on), so time travel works on everything kept.
 *
 * @example
 * ```ts
 * const policy: RetentionPolicy = {
 *   keepLast: 50, // the newest 50 checkpoints of each namespace
 *   maxAgeMs: 7 * 24 * 3_600_000, // and none older than a week
 *   headLineageOnly: true, // abandoned forks go
 *   threadTtlMs: 90 * 24 * 3_600_000, // a thread idle for 90 days is deleted whole
 * };
 * ```
 */
export interface RetentionPolicy {
  /** Keep at most this many checkpoints per namespace, the newest (by `seq`). A positive integer. */
  readonly keepLast?: number;
  /** Drop checkpoints created longer ago than this many milliseconds. A positive number. */
  readonly maxAgeMs?: number;
  /** Drop checkpoints that are not the head or one of its ancestors (branches left by forks). */
  readonly headLineageOnly?: boolean;
  /** Delete a whole thread whose newest checkpoint is older than this many milliseconds. A positive number. */
  readonly threadTtlMs?: number;
}

/**
 * Checks a policy's fields.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` naming the field that is not a positive number (or, for
 * `keepLast`, a positive integer).
 * @example
 * ```ts
 * checkRetentionPolicy({ keepLast: 10 }); // fine
 * checkRetentionPolicy({ keepLast: 0 }); // throws: keepLast must be a positive integer
 * ```
 */
export function checkRetentionPolicy(policy: RetentionPolicy): void {
  const { keepLast, maxAgeMs, threadTtlMs } = policy;
  if (keepLast !== undefined && !(Number.isInteger(keepLast) && keepLast > 0))
    throw invalid(`retention policy keepLast must be a positive integer, got ${String(keepLast)}`);
  for (const [field, value] of [
    ['maxAgeMs', maxAgeMs],
    ['threadTtlMs', threadTtlMs],
  ] as const) {
    if (value !== undefined && !(typeof value === 'number' && value > 0 && Number.isFinite(value)))
      throw invalid(
        `retention policy ${field} must be a positive number of milliseconds, got ${String(value)}`,
      );
  }
}

function invalid(message: string): WeftError {
  return new WeftError('INVALID_ARGUMENT', message);
}

/**
 * The ids of a namespace's checkpoints that `policy` drops, oldest first. `links` are the namespace's
 * checkpoints oldest first (as `listLinks` gives them); `now` is the time the ages are measured from.
 *
 * @example
 * ```ts
 * declare const links: CheckpointLink[];
 * const drop = planRetention(links, { keepLast: 10 }, Date.now());
 * ```
 */
export function planRetention(
  links: readonly CheckpointLink[],
  policy: RetentionPolicy,
  now: number,
): string[] {
  const head = links.at(-1);
  if (head === undefined) return [];
  const byId = new Map(links.map((link) => [link.id, link]));
  const lineage = policy.headLineageOnly ? ancestors(head, byId) : undefined;
  const oldest = policy.maxAgeMs === undefined ? undefined : now - policy.maxAgeMs;
  const firstKept = policy.keepLast === undefined ? 0 : links.length - policy.keepLast;
  const kept = new Set<string>();
  links.forEach((link, index) => {
    const dropped =
      index < firstKept ||
      (oldest !== undefined && Date.parse(link.createdAt) < oldest) ||
      (lineage !== undefined && !lineage.has(link.id));
    if (!dropped || link === head || link.paused) keepWithChain(link, byId, kept);
  });
  return links.filter((link) => !kept.has(link.id)).map((link) => link.id);
}

/** The head and its ancestors. */
function ancestors(head: CheckpointLink, byId: ReadonlyMap<string, CheckpointLink>): Set<string> {
  const seen = new Set<string>();
  for (let link: CheckpointLink | undefined = head; link && !seen.has(link.id); ) {
    seen.add(link.id);
    link = link.parentId === null ? undefined : byId.get(link.parentId);
  }
  return seen;
}

/** Keeps a checkpoint and what rebuilding it reads: its parents back to its base snapshot. */
function keepWithChain(
  link: CheckpointLink,
  byId: ReadonlyMap<string, CheckpointLink>,
  kept: Set<string>,
): void {
  for (let current: CheckpointLink | undefined = link; current && !kept.has(current.id); ) {
    kept.add(current.id);
    if (current.id === current.baseId || current.parentId === null) return;
    current = byId.get(current.parentId);
  }
}
