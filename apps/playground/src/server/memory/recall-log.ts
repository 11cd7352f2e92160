import type { RecallInfo } from '../../shared/memory-wire.ts';

/**
 * The recalls of the playground's agent runs (what `recall` put in an instruction, per turn), newest
 * first, the last `limit` kept in memory: the Memory tab lists a user's.
 *
 * @example
 * ```ts
 * const log = new RecallLog();
 * log.add(recall);
 * log.forUser('playground-user'); // newest first
 * ```
 */
export class RecallLog {
  readonly #items: RecallInfo[] = [];
  readonly #limit: number;

  constructor(limit = 200) {
    this.#limit = limit;
  }

  add(recall: RecallInfo): void {
    this.#items.unshift(recall);
    if (this.#items.length > this.#limit) this.#items.length = this.#limit;
  }

  forUser(userId: string): RecallInfo[] {
    return this.#items.filter((item) => item.userId === userId);
  }
}

/** The `memory-recall` report inside a run event, if it is one (an agent event with that custom type). */
export function recallOf(event: unknown): { agent: string; data: Record<string, unknown> } | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const e = event as {
    type?: unknown;
    agent?: unknown;
    event?: { custom?: { type?: unknown; data?: unknown } };
  };
  const custom = e.event?.custom;
  if (e.type !== 'agent' || custom?.type !== 'memory-recall') return undefined;
  if (typeof custom.data !== 'object' || custom.data === null) return undefined;
  return {
    agent: typeof e.agent === 'string' ? e.agent : 'agent',
    data: custom.data as Record<string, unknown>,
  };
}
