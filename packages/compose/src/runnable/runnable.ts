/** Options every `Runnable` call accepts. Graphs accept more (see `RunOptions`). */
export interface CallOptions {
  /** Cancels the call; streams close and pending work receives the signal. */
  readonly signal?: AbortSignal;
  /** User values passed through to nodes (`ctx.config`). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/**
 * Anything Weft can run, in four paradigms: one input to one output (`invoke`), one input to a stream
 * (`stream`), a stream to one output (`collect`), and a stream to a stream (`transform`).
 * Implement one with {@link runnable} and get the other three.
 *
 * @example
 * ```ts
 * const upper = runnable({ invoke: async (text: string) => text.toUpperCase() });
 * for await (const chunk of upper.stream('hi')) console.log(chunk); // 'HI'
 * ```
 */
export interface Runnable<TInput, TOutput, TChunk = TOutput> {
  /** Runs once and resolves with the output. */
  invoke(input: TInput, options?: CallOptions): Promise<TOutput>;
  /** Runs once and yields the output as it is produced. */
  stream(input: TInput, options?: CallOptions): AsyncIterable<TChunk>;
  /** Consumes a stream of input chunks and resolves with the output. */
  collect(input: AsyncIterable<TInput>, options?: CallOptions): Promise<TOutput>;
  /** Consumes a stream of input chunks and yields output chunks. */
  transform(input: AsyncIterable<TInput>, options?: CallOptions): AsyncIterable<TChunk>;
}

/** A runnable with its types erased. */
export type AnyRunnable = Runnable<never, unknown, unknown>;

/** True when `value` has the four runnable methods. */
export function isRunnable(value: unknown): value is AnyRunnable {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof AnyRunnable, unknown>>;
  return (
    typeof candidate.invoke === 'function' &&
    typeof candidate.stream === 'function' &&
    typeof candidate.collect === 'function' &&
    typeof candidate.transform === 'function'
  );
}

const streamsInputMark = Symbol.for('weft.runnable.streamsInput');

/**
 * Marks a runnable whose `transform` reads its input stream as it comes (its own `transform`, not one
 * derived by joining the input first). A graph pipes a streaming predecessor's chunks into such a node
 * (see `docs/adr/022-streams-flow-between-nodes.md`); {@link runnable} marks what it builds itself.
 */
export function markStreamsInput<T extends object>(value: T): T {
  Object.defineProperty(value, streamsInputMark, { value: true });
  return value;
}

/** True for a runnable whose `transform` reads its input stream as it comes (see {@link markStreamsInput}). */
export function streamsInput(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [streamsInputMark]?: unknown })[streamsInputMark] === true
  );
}

/** True when `value` can be iterated with `for await`. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** True for promises and other thenables. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
