import type { RunEvent } from '../events/run-event.js';

/** What `stream()` can yield. */
export type StreamMode = 'values' | 'updates' | 'messages' | 'custom' | 'events';

/** A node's write, as the `updates` mode yields it. */
export interface UpdatePart<TNodes extends string, TUpdate> {
  readonly node: TNodes;
  readonly update: TUpdate;
  /** Node path of the graph the node belongs to (`[]` for the root graph). */
  readonly path: readonly string[];
}

/** A chunk of a streaming node, as the `messages` mode yields it. */
export interface ChunkPart<TNodes extends string> {
  readonly node: TNodes;
  readonly chunk: unknown;
  /** The agent whose model produced it, when an agent's node sent it. */
  readonly agent?: string;
  readonly path: readonly string[];
}

/** A value a node sent with `ctx.emit`, as the `custom` mode yields it. */
export interface CustomPart<TNodes extends string> {
  readonly node: TNodes;
  readonly data: unknown;
  readonly path: readonly string[];
}

/** The payload of each stream mode. */
export interface StreamParts<TValues, TNodes extends string, TUpdate> {
  readonly values: TValues;
  readonly updates: UpdatePart<TNodes, TUpdate>;
  readonly messages: ChunkPart<TNodes>;
  readonly custom: CustomPart<TNodes>;
  readonly events: RunEvent;
}

/** What a stream yields for one mode, or `[mode, payload]` tuples for several. */
export type InferStreamPart<TParts, TMode> = TMode extends readonly (infer TEach)[]
  ? TEach extends keyof TParts
    ? readonly [TEach, TParts[TEach]]
    : never
  : TMode extends keyof TParts
    ? TParts[TMode]
    : never;
