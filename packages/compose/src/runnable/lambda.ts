import { WeftError } from '../errors/weft-error.js';
import { type ConcatFunction, concatChunks } from './concat.js';
import { type CallOptions, markStreamsInput, type Runnable } from './runnable.js';

/** The paradigms a {@link runnable} implements; at least one is required. */
export interface RunnableParts<TInput, TOutput, TChunk> {
  readonly invoke?: (input: TInput, options?: CallOptions) => Promise<TOutput> | TOutput;
  readonly stream?: (input: TInput, options?: CallOptions) => AsyncIterable<TChunk>;
  readonly collect?: (input: AsyncIterable<TInput>, options?: CallOptions) => Promise<TOutput> | TOutput;
  readonly transform?: (input: AsyncIterable<TInput>, options?: CallOptions) => AsyncIterable<TChunk>;
  /** Combines output chunks into one output (default: {@link concatChunks}). */
  readonly concatOutput?: (chunks: readonly TChunk[]) => TOutput;
  /** Combines input chunks into one input (default: {@link concatChunks}). */
  readonly concatInput?: ConcatFunction;
}

/**
 * Builds a {@link Runnable} from any of its four paradigms. Missing ones are derived: an `invoke`
 * streams as one chunk, a `stream` is concatenated for `invoke`, and stream inputs are concatenated
 * before a non-streaming paradigm sees them. A runnable with its own `transform` reads its input stream
 * as it comes, so inside a graph a streaming predecessor's chunks flow into it without being joined.
 * With only `stream` or `transform` (no `concatOutput`), the output has the chunks' type (they join
 * into one of them).
 *
 * @throws WeftError `INVALID_ARGUMENT` when no paradigm is given.
 * @example
 * ```ts
 * const words = runnable({ stream: async function* (text: string) { yield* text.split(' '); } });
 * await words.invoke('a b'); // 'ab'
 * ```
 */
export function runnable<TInput, TChunk>(
  parts: RunnableParts<TInput, TChunk, TChunk> & {
    readonly invoke?: undefined;
    readonly collect?: undefined;
    readonly concatOutput?: undefined;
  },
): Runnable<TInput, TChunk, TChunk>;
export function runnable<TInput, TOutput, TChunk = TOutput>(
  parts: RunnableParts<TInput, TOutput, TChunk>,
): Runnable<TInput, TOutput, TChunk>;
export function runnable<TInput, TOutput, TChunk = TOutput>(
  parts: RunnableParts<TInput, TOutput, TChunk>,
): Runnable<TInput, TOutput, TChunk> {
  if (!parts.invoke && !parts.stream && !parts.collect && !parts.transform) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      'runnable() needs at least one of invoke, stream, collect, transform',
    );
  }
  const concatOut = parts.concatOutput ?? ((chunks: readonly TChunk[]) => concatChunks(chunks) as TOutput);
  const concatIn = parts.concatInput ?? concatChunks;
  const single = async function* (value: TInput): AsyncIterable<TInput> {
    yield value;
  };
  const gather = async <T>(source: AsyncIterable<T>): Promise<T[]> => {
    const items: T[] = [];
    for await (const item of source) items.push(item);
    return items;
  };
  const invoke = async (input: TInput, options?: CallOptions): Promise<TOutput> => {
    if (parts.invoke) return parts.invoke(input, options);
    if (parts.stream) return concatOut(await gather(parts.stream(input, options)));
    if (parts.collect) return parts.collect(single(input), options);
    return concatOut(await gather(parts.transform!(single(input), options)));
  };
  const stream = (input: TInput, options?: CallOptions): AsyncIterable<TChunk> => {
    if (parts.stream) return parts.stream(input, options);
    if (parts.transform) return parts.transform(single(input), options);
    return (async function* () {
      yield (await invoke(input, options)) as unknown as TChunk;
    })();
  };
  const collect = async (input: AsyncIterable<TInput>, options?: CallOptions): Promise<TOutput> => {
    if (parts.collect) return parts.collect(input, options);
    if (parts.transform) return concatOut(await gather(parts.transform(input, options)));
    return invoke(concatIn(await gather(input)) as TInput, options);
  };
  const transform = (input: AsyncIterable<TInput>, options?: CallOptions): AsyncIterable<TChunk> => {
    if (parts.transform) return parts.transform(input, options);
    const { collect: collectInput } = parts;
    if (collectInput && !parts.stream) {
      // Without a stream to prefer, the input stream goes to collect as is (its chunks intact).
      return (async function* () {
        yield (await collectInput(input, options)) as unknown as TChunk;
      })();
    }
    return (async function* () {
      yield* stream(concatIn(await gather(input)) as TInput, options);
    })();
  };
  const built = { invoke, stream, collect, transform };
  return parts.transform ? markStreamsInput(built) : built;
}
