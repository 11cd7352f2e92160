import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import {
  type AssistantMessage,
  type ChatModel,
  type ChatModelCallOptions,
  concatMessageChunks,
  type Message,
  type MessageChunk,
  messageText,
} from '@weft/adk';
import { redactSecrets } from '@weft/compose';
import { EvaluationError } from '../evaluation-error.js';
import {
  type CanonicalRequest,
  canonicalRequest,
  firstDifference,
  requestDistance,
  requestKey,
  withoutCaller,
} from './request-key.js';

/** One recorded model call. */
interface CassetteEntry {
  readonly key: string;
  readonly request: CanonicalRequest;
  readonly response: AssistantMessage;
}

interface CassetteFile {
  readonly version: 1;
  readonly entries: CassetteEntry[];
}

/** A model call a replaying cassette had no recording for. */
export interface CassetteMiss {
  readonly key: string;
  readonly model: string;
  /**
   * The recording of the same model closest to the request (fewest characters of its messages and
   * options differing): its position in the file (0-based) and key. Absent when the model has none.
   */
  readonly nearest?: { readonly index: number; readonly key: string };
  /** Where the request first differs from that recording: a path and both values. */
  readonly difference?: string;
}

/** Options of {@link cassetteModel}. */
export interface CassetteOptions {
  /** The cassette file (JSON). */
  readonly path: string;
  /** `record`: call `model` and store every answer (the file is rewritten after each call); `replay`: answer only from the file. */
  readonly mode: 'record' | 'replay';
  /** The real model; required to record. Its name keys the recordings. */
  readonly model?: ChatModel;
  /** The name recordings are keyed by when replaying without a model (default: the model's name). */
  readonly name?: string;
  /**
   * Secret values (API keys, tokens a tool used) never written to the file: they are replaced by
   * `[REDACTED]` in every recorded prompt, tool result and answer, as are the process's registered
   * secrets (`registerSecret`) and anything shaped like a credential. Requests are keyed after
   * redaction, so a replay with the same secret in a prompt finds its recording.
   */
  readonly secrets?: readonly string[];
}

/** A chat model that records to, or replays from, a cassette file. */
export interface CassetteModel extends ChatModel {
  /** Calls a replay had no recording for, in the order they were asked. */
  readonly misses: readonly CassetteMiss[];
  /** How many calls were answered from the cassette. */
  readonly hits: number;
}

/**
 * Records a model's answers once, then replays them so an eval set runs in CI without the model. A
 * recording is keyed by the request itself (model name, messages without ids, options without the
 * signal and without who asked — the Runner's app, user and session ids are neither in the key nor in
 * the file), so it replays in any session; the same request asked again gets its recordings in turn. A
 * replayed request that was never recorded is a **miss**: the call throws `CASSETTE_MISS` naming the
 * recording nearest to it and where they differ, the miss is listed in `misses`, and nothing is
 * re-recorded behind your back.
 *
 * @throws {EvaluationError} `CASSETTE_MISS` on a replay miss; `CASSETTE_INVALID` for an unreadable file;
 *   `INVALID_ARGUMENT` for `record` without a model.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const realModel = new ScriptedChatModel(['It is 3.']); // e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const model = cassetteModel({ path: 'evals/calc.cassette.json', mode: process.env.RECORD ? 'record' : 'replay', model: realModel });
 * const agent = new ChatModelAgent({ name: 'calc', model, tools: [add] });
 * ```
 */
export function cassetteModel(options: CassetteOptions): CassetteModel {
  if (options.mode === 'record' && !options.model)
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `cassette ${options.path}: recording needs the real \`model\``,
    );
  const name = options.name ?? options.model?.name;
  if (name === undefined)
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `cassette ${options.path}: replaying without a model needs a \`name\``,
    );
  const file = readCassette(options.path, options.mode);
  const secrets = options.secrets ?? [];
  const redactedRequest = (request: CanonicalRequest): CanonicalRequest => redactDeep(request, secrets);
  const served = new Map<string, number>();
  const misses: CassetteMiss[] = [];
  let hits = 0;

  const lookup = (messages: readonly Message[], callOptions?: ChatModelCallOptions): AssistantMessage => {
    const request = redactedRequest(canonicalRequest(name, messages, callOptions));
    const key = requestKey(request);
    const recorded = file.entries.filter((entry) => entry.key === key);
    if (recorded.length === 0) {
      const nearest = nearestEntry(file.entries, request);
      const miss: CassetteMiss = {
        key,
        model: name,
        ...(nearest
          ? {
              nearest: { index: nearest.index, key: nearest.entry.key },
              difference: firstDifference(nearest.entry.request, request),
            }
          : {}),
      };
      misses.push(miss);
      const where = nearest
        ? `; nearest is recording ${nearest.index + 1} (of ${file.entries.length}), which differs at ${miss.difference}`
        : `; the cassette holds no recording of ${name}`;
      throw new EvaluationError(
        'CASSETTE_MISS',
        `cassette ${options.path} has no recording of this ${name} call (key ${key})${where}. Record it again with mode 'record'.`,
      );
    }
    const turn = served.get(key) ?? 0;
    served.set(key, turn + 1);
    hits += 1;
    return (recorded[turn % recorded.length] as CassetteEntry).response;
  };

  const record = (
    messages: readonly Message[],
    callOptions: ChatModelCallOptions | undefined,
    response: AssistantMessage,
  ): void => {
    const request = redactedRequest(canonicalRequest(name, messages, callOptions));
    file.entries.push({ key: requestKey(request), request, response: redactDeep(response, secrets) });
    const temporary = `${options.path}.tmp-${process.pid}`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(temporary, options.path);
  };

  return {
    name,
    get misses() {
      return misses;
    },
    get hits() {
      return hits;
    },
    async generate(messages, callOptions) {
      if (options.mode === 'replay') return lookup(messages, callOptions);
      const response = await (options.model as ChatModel).generate(messages, callOptions);
      record(messages, callOptions, response);
      return response;
    },
    async *stream(messages, callOptions): AsyncIterable<MessageChunk> {
      if (options.mode === 'replay') {
        yield* replayChunks(lookup(messages, callOptions));
        return;
      }
      const chunks: MessageChunk[] = [];
      for await (const chunk of (options.model as ChatModel).stream(messages, callOptions)) {
        chunks.push(chunk);
        yield chunk;
      }
      record(messages, callOptions, concatMessageChunks(chunks));
    },
  };
}

/** The recording of the asked model closest to the request (the earliest of equally close ones). */
function nearestEntry(
  entries: readonly CassetteEntry[],
  request: CanonicalRequest,
): { index: number; entry: CassetteEntry } | undefined {
  let best: { index: number; entry: CassetteEntry; distance: number } | undefined;
  for (const [index, entry] of entries.entries()) {
    if (entry.request.model !== request.model) continue;
    const distance = requestDistance(entry.request, request);
    if (!best || distance < best.distance) best = { index, entry, distance };
  }
  return best && { index: best.index, entry: best.entry };
}

function* replayChunks(message: AssistantMessage): Iterable<MessageChunk> {
  const text = messageText(message);
  if (text !== '') yield { ...(message.id ? { id: message.id } : {}), text };
  const deltas = (message.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id,
    name: call.name,
    arguments: call.arguments,
  }));
  if (deltas.length > 0) yield { toolCallDeltas: deltas };
  if (message.usage) yield { usage: message.usage };
}

function readCassette(path: string, mode: CassetteOptions['mode']): CassetteFile {
  if (!existsSync(path)) {
    if (mode === 'replay')
      throw new EvaluationError(
        'CASSETTE_INVALID',
        `cassette ${path} does not exist; record it first (mode 'record')`,
      );
    return { version: 1, entries: [] };
  }
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<CassetteFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.entries))
      throw new Error('expected { version: 1, entries: [...] }');
    // Cassettes recorded before keys left out the caller (app, user and session ids) are keyed again.
    const entries = parsed.entries.map((entry) => {
      const request = withoutCaller(entry.request);
      return request === entry.request ? entry : { ...entry, request, key: requestKey(request) };
    });
    return { version: 1, entries: mode === 'record' ? [] : entries };
  } catch (error) {
    throw new EvaluationError(
      'CASSETTE_INVALID',
      `cassette ${path} is not readable: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** `value` with every string in it redacted (see `redactSecrets`), `secrets` included. */
function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return redactSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, secrets)) as T;
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactDeep(item as unknown, secrets)]),
    ) as T;
  return value;
}
