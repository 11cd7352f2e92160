// Options types of CompiledGraph's methods (stream, batch, withOptions) and its continuation input.
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import type { RunOptions } from '../pregel/run-options.js';
import type { Store } from '../store/store.js';
import type { StreamMode } from '../stream/stream-modes.js';
import type { Command } from '../vocabulary/command.js';

/** Options of `stream()`. */
export interface StreamOptions<
  TMode extends StreamMode | readonly StreamMode[] = StreamMode | readonly StreamMode[],
  TNodes extends string = string,
  TBatched extends boolean = boolean,
> extends RunOptions<TNodes> {
  /** What to yield (default `values`); several modes yield `[mode, payload]` tuples. */
  readonly mode?: TMode;
  /** Also yield values/updates/messages/custom of nested subgraphs (events always include them). */
  readonly subgraphs?: boolean;
  /**
   * Yield arrays: each item is every part ready when the consumer asked (never empty), so a fast run
   * costs one `for await` turn per burst instead of one per part. Joined, the arrays are exactly the
   * parts the unbatched stream yields, in the same order; where one array ends is not part of the
   * contract (it depends on when the consumer asks).
   */
  readonly batched?: TBatched;
}

/** Options of `batch()`. */
export interface BatchOptions<TNodes extends string = string> extends RunOptions<TNodes> {
  /** Runs at once (default 8). */
  readonly batchConcurrency?: number;
}

/** Runtime options `withOptions` can change. */
export interface GraphRuntimeOptions<TNodes extends string = string> {
  readonly checkpointer?: Checkpointer | undefined;
  /** The store nodes see as `ctx.store`. */
  readonly store?: Store | undefined;
  readonly maxSteps?: number;
  readonly durability?: 'sync' | 'async' | 'exit';
  readonly interruptBefore?: readonly TNodes[];
  readonly interruptAfter?: readonly TNodes[];
}

/** Input that continues a checkpointed thread: `null` (go on) or a `Command` (resume). */
export type Continue = Command | null;
