import { WeftError } from './weft-error.js';

/**
 * A stored thread's state cannot be read at this graph's state version: it was written by a newer
 * version of the graph (`newer`), or the migration from its version is missing (`no-migration`) or failed
 * (`migration-failed`, the migration's error as `cause`). Names the thread, checkpoint, graph and both
 * versions; `code` is `STATE_VERSION`.
 *
 * @example
 * ```ts
 * declare const app: CompiledGraph<{ n: number }, { n: number }>;
 * try {
 *   await app.invoke(null, { threadId: 'ticket-7' });
 * } catch (error) {
 *   if (StateVersionError.isInstance(error)) console.log(error.storedVersion, error.graphVersion);
 * }
 * ```
 */
export class StateVersionError extends WeftError {
  readonly threadId: string;
  readonly checkpointId: string;
  readonly graph: string;
  /** The version the checkpoint was written at. */
  readonly storedVersion: number;
  /** The version the graph reads. */
  readonly graphVersion: number;
  readonly reason: 'newer' | 'no-migration' | 'migration-failed';

  constructor(options: {
    readonly threadId: string;
    readonly checkpointId: string;
    readonly graph: string;
    readonly storedVersion: number;
    readonly graphVersion: number;
    readonly reason: 'newer' | 'no-migration' | 'migration-failed';
    readonly cause?: unknown;
  }) {
    const { threadId, checkpointId, graph, storedVersion, graphVersion, reason } = options;
    const where = `checkpoint "${checkpointId}" of thread "${threadId}" holds state version ${storedVersion}`;
    const why =
      reason === 'newer'
        ? `newer than graph "${graph}" reads (version ${graphVersion}); run it with the newer graph`
        : reason === 'no-migration'
          ? `and graph "${graph}" (version ${graphVersion}) has no migration from version ${storedVersion} (compile({ migrations: { ${storedVersion}: … } }))`
          : `and the migration of graph "${graph}" from version ${storedVersion} failed: ${(options.cause as Error | undefined)?.message ?? String(options.cause)}`;
    super('STATE_VERSION', `${where}, ${why}`, { cause: options.cause });
    this.name = 'StateVersionError';
    this.threadId = threadId;
    this.checkpointId = checkpointId;
    this.graph = graph;
    this.storedVersion = storedVersion;
    this.graphVersion = graphVersion;
    this.reason = reason;
  }

  /** Whether `error` is a `StateVersionError` (also from another copy of this package). */
  static override isInstance(value: unknown): value is StateVersionError {
    return WeftError.isInstance(value) && value.code === 'STATE_VERSION' && 'storedVersion' in value;
  }
}
