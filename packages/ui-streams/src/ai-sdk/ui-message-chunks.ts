import type {
  AgentEvent,
  AgentInterrupt,
  AssistantMessage,
  MessageChunk,
  ToolApprovalRequest,
  ToolMessage,
} from '@weft/adk';
import { messageText } from '@weft/adk';
import type { UIMessageChunk } from 'ai';
import { approvalId } from '../interrupts/approval-id.js';

/**
 * How {@link toUIMessageChunks} writes a run.
 *
 * @example
 * ```ts
 * const options: UIMessageChunkOptions = { messageId: 'msg_1', deniedToolCallIds: new Set(['call_2']) };
 * ```
 */
export interface UIMessageChunkOptions {
  /** The id of the assistant message the `start` chunk announces (default: the client picks one). */
  readonly messageId?: string;
  /**
   * Tool calls the client already shows (a resumed message's tool parts): their results are written
   * to the parts they answer. Results of calls neither here nor announced in this stream are left out.
   */
  readonly knownToolCallIds?: ReadonlySet<string>;
  /** Calls the user rejected: their error results become `tool-output-denied`. */
  readonly deniedToolCallIds?: ReadonlySet<string>;
}

type Finish = NonNullable<Extract<UIMessageChunk, { type: 'finish' }>['finishReason']>;

/**
 * Writes a Weft agent run (the events of `runner.run` or `runner.resume`) as AI SDK UI message stream
 * chunks: `start`; per model call a step (`start-step` … `finish-step`) with streamed `reasoning-*` and
 * `text-*` parts, `tool-input-start`/`-delta` while call arguments stream, `tool-input-available` (or
 * `tool-input-error` for arguments that are not JSON) once the reply is complete; tool results as
 * `tool-output-available`, `tool-output-error` or (for rejected calls) `tool-output-denied`; a
 * tool-approval interrupt as one `tool-approval-request` per call (its `approvalId` names the interrupt
 * and the call, see `approvalId`); any other interrupt as a `data-interrupt` part; custom events as
 * `data-<type>` parts; a failed run as `error`; else `finish` with the last reply's finish reason.
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * for await (const chunk of toUIMessageChunks(runner.run({ userId: 'u1', sessionId: 's1', message: 'Hi' })))
 *   console.log(chunk.type);
 * ```
 */
export async function* toUIMessageChunks(
  events: AsyncIterable<AgentEvent>,
  options: UIMessageChunkOptions = {},
): AsyncGenerator<UIMessageChunk> {
  const writer = new ChunkWriter(options);
  yield { type: 'start', ...(options.messageId === undefined ? {} : { messageId: options.messageId }) };
  try {
    for await (const event of events) yield* writer.event(event);
  } catch (error) {
    yield* writer.close();
    yield { type: 'error', errorText: error instanceof Error ? error.message : String(error) };
    return;
  }
  yield* writer.close();
  if (writer.failed) return;
  yield { type: 'finish', finishReason: writer.finishReason };
}

class ChunkWriter {
  failed = false;
  finishReason: Finish = 'stop';
  readonly #known: Set<string>;
  readonly #denied: ReadonlySet<string>;
  #stepOpen = false;
  #parts = 0;
  #text: string | undefined;
  readonly #reasoning = new Map<number, string>();
  /** Streamed calls of the reply being written: delta index → call id, or null when it came without one. */
  readonly #calls = new Map<number, string | null>();
  #streamed = false;

  constructor(options: UIMessageChunkOptions) {
    this.#known = new Set(options.knownToolCallIds ?? []);
    this.#denied = options.deniedToolCallIds ?? new Set();
  }

  *event(event: AgentEvent): Generator<UIMessageChunk> {
    if (event.partial) {
      if (event.chunk) yield* this.#chunk(event.chunk);
      return;
    }
    if (event.error) {
      this.failed = true;
      yield* this.close();
      yield { type: 'error', errorText: `${event.error.code}: ${event.error.message}` };
    }
    const message = event.message;
    if (message?.role === 'assistant') yield* this.#reply(message);
    else if (message?.role === 'tool') yield* this.#result(message);
    if (event.custom) yield { type: `data-${event.custom.type}`, data: event.custom.data };
    for (const interrupt of event.interrupts ?? []) yield* this.#interrupt(interrupt);
  }

  *close(): Generator<UIMessageChunk> {
    yield* this.#endParts();
    if (this.#stepOpen) yield { type: 'finish-step' };
    this.#stepOpen = false;
  }

  *#step(): Generator<UIMessageChunk> {
    if (this.#stepOpen) return;
    this.#stepOpen = true;
    yield { type: 'start-step' };
  }

  #partId(kind: string): string {
    this.#parts += 1;
    return `${kind}-${this.#parts}`;
  }

  *#chunk(chunk: MessageChunk): Generator<UIMessageChunk> {
    yield* this.#step();
    for (const delta of chunk.reasoningDeltas ?? []) {
      if (!delta.text) continue;
      let id = this.#reasoning.get(delta.index);
      if (id === undefined) {
        id = this.#partId('reasoning');
        this.#reasoning.set(delta.index, id);
        yield { type: 'reasoning-start', id };
      }
      this.#streamed = true;
      yield { type: 'reasoning-delta', id, delta: delta.text };
    }
    if (chunk.text) {
      if (this.#text === undefined) {
        this.#text = this.#partId('text');
        yield { type: 'text-start', id: this.#text };
      }
      this.#streamed = true;
      yield { type: 'text-delta', id: this.#text, delta: chunk.text };
    }
    for (const delta of chunk.toolCallDeltas ?? []) {
      let id = this.#calls.get(delta.index);
      if (id === undefined) {
        // A call is streamed only when its first delta names it: the complete reply settles the rest.
        id = delta.id && delta.name ? delta.id : null;
        this.#calls.set(delta.index, id);
        if (id !== null && delta.name)
          yield { type: 'tool-input-start', toolCallId: id, toolName: delta.name };
      }
      if (id !== null && delta.arguments)
        yield { type: 'tool-input-delta', toolCallId: id, inputTextDelta: delta.arguments };
    }
  }

  *#endParts(): Generator<UIMessageChunk> {
    for (const id of this.#reasoning.values()) yield { type: 'reasoning-end', id };
    this.#reasoning.clear();
    if (this.#text !== undefined) yield { type: 'text-end', id: this.#text };
    this.#text = undefined;
  }

  *#reply(message: AssistantMessage): Generator<UIMessageChunk> {
    yield* this.#step();
    if (!this.#streamed) yield* this.#whole(message);
    yield* this.#endParts();
    for (const call of message.toolCalls ?? []) {
      this.#known.add(call.id);
      const input = parseJson(call.arguments);
      yield input.ok
        ? { type: 'tool-input-available', toolCallId: call.id, toolName: call.name, input: input.value }
        : {
            type: 'tool-input-error',
            toolCallId: call.id,
            toolName: call.name,
            input: call.arguments,
            errorText: `the arguments of tool "${call.name}" are not JSON`,
          };
    }
    this.#calls.clear();
    this.#streamed = false;
    if (message.finishReason) this.finishReason = message.finishReason;
    // The step closes here; the tool results that follow belong to the next model call's step.
    yield { type: 'finish-step' };
    this.#stepOpen = false;
  }

  /** A reply that was not streamed (a model without streaming, a replayed turn): its parts at once. */
  *#whole(message: AssistantMessage): Generator<UIMessageChunk> {
    const parts = typeof message.content === 'string' ? [] : message.content;
    for (const part of parts) {
      if (part.type !== 'reasoning' || part.text === '') continue;
      const id = this.#partId('reasoning');
      yield { type: 'reasoning-start', id };
      yield { type: 'reasoning-delta', id, delta: part.text };
      yield { type: 'reasoning-end', id };
    }
    const text = messageText(message);
    if (text === '') return;
    const id = this.#partId('text');
    yield { type: 'text-start', id };
    yield { type: 'text-delta', id, delta: text };
    yield { type: 'text-end', id };
  }

  *#result(message: ToolMessage): Generator<UIMessageChunk> {
    const toolCallId = message.toolCallId;
    if (!this.#known.has(toolCallId)) return;
    const text = messageText(message);
    if (message.status === 'error') {
      yield this.#denied.has(toolCallId)
        ? { type: 'tool-output-denied', toolCallId }
        : { type: 'tool-output-error', toolCallId, errorText: text };
      return;
    }
    const output = parseJson(text);
    yield { type: 'tool-output-available', toolCallId, output: output.ok ? output.value : text };
  }

  *#interrupt(interrupt: AgentInterrupt): Generator<UIMessageChunk> {
    if (isApproval(interrupt.value)) {
      for (const call of interrupt.value.calls) {
        if (!this.#known.has(call.id)) continue;
        yield {
          type: 'tool-approval-request',
          approvalId: approvalId(interrupt.id, call.id),
          toolCallId: call.id,
        };
      }
      return;
    }
    yield {
      type: 'data-interrupt',
      id: interrupt.id,
      data: { id: interrupt.id, value: interrupt.value, path: interrupt.path },
    };
  }
}

function isApproval(value: unknown): value is ToolApprovalRequest {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'tool-approval' &&
    Array.isArray((value as { calls?: unknown }).calls)
  );
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
