import { type AGUIEvent, EventType, type Interrupt, type RunFinishedOutcome } from '@ag-ui/core';
import type { AgentEvent, AgentInterrupt, AssistantMessage, MessageChunk, ToolMessage } from '@weft/adk';
import { messageText } from '@weft/adk';
import { approvalId } from '../interrupts/approval-id.js';

/**
 * Which AG-UI run {@link toAgUiEvents} writes, and the state it starts from.
 *
 * @example
 * ```ts
 * const run: AgUiRunOptions = { threadId: 'thread_1', runId: 'run_1', state: { plan: [] } };
 * ```
 */
export interface AgUiRunOptions {
  /** The AG-UI thread (Weft's session id). */
  readonly threadId: string;
  /** The run id the client chose. */
  readonly runId: string;
  /** The session's state before the run, sent as `STATE_SNAPSHOT` so later `STATE_DELTA`s apply to it. */
  readonly state?: Readonly<Record<string, unknown>>;
}

/**
 * Writes a Weft agent run (the events of `runner.run` or `runner.resume`) as AG-UI events: `RUN_STARTED`
 * and a `STATE_SNAPSHOT`; streamed text as `TEXT_MESSAGE_START`/`_CONTENT`/`_END`; each tool call as
 * `TOOL_CALL_START`/`_ARGS`/`_END` (arguments streamed when the model streams them) and its result as
 * `TOOL_CALL_RESULT`; each committed `stateDelta` as a `STATE_DELTA` (JSON Patch `add` per key,
 * `temp:` keys left out); custom events as `CUSTOM` (`name` = type, `value` = data); a failed run as
 * `RUN_ERROR`; else `RUN_FINISHED`, whose outcome is `interrupt` when the run paused — one AG-UI
 * interrupt per tool call awaiting approval (`reason: 'tool_approval'`, `toolCallId`), one per other
 * pause (`reason: 'input'`, its id URI-encoded, the pause's value and path in `metadata`) — and `success` otherwise.
 *
 * @example
 * ```ts
 * declare const runner: import('@weft/adk').Runner;
 * for await (const event of toAgUiEvents(runner.run({ userId: 'u1', sessionId: 't1', message: 'Hi' }), { threadId: 't1', runId: 'r1' }))
 *   console.log(event.type);
 * ```
 */
export async function* toAgUiEvents(
  events: AsyncIterable<AgentEvent>,
  run: AgUiRunOptions,
): AsyncGenerator<AGUIEvent> {
  const writer = new AgUiWriter();
  yield { type: EventType.RUN_STARTED, threadId: run.threadId, runId: run.runId };
  yield { type: EventType.STATE_SNAPSHOT, snapshot: { ...run.state } };
  try {
    for await (const event of events) {
      yield* writer.event(event);
      if (writer.error) {
        yield { type: EventType.RUN_ERROR, message: writer.error.message, code: writer.error.code };
        return;
      }
    }
  } catch (error) {
    yield* writer.close();
    yield { type: EventType.RUN_ERROR, message: error instanceof Error ? error.message : String(error) };
    return;
  }
  yield* writer.close();
  const outcome: RunFinishedOutcome =
    writer.interrupts.length > 0 ? { type: 'interrupt', interrupts: writer.interrupts } : { type: 'success' };
  yield { type: EventType.RUN_FINISHED, threadId: run.threadId, runId: run.runId, outcome };
}

class AgUiWriter {
  error: { message: string; code: string } | undefined;
  readonly interrupts: Interrupt[] = [];
  #messages = 0;
  #text: string | undefined;
  /** Streamed calls of the reply being written: delta index → call id, or null when it came without one. */
  readonly #calls = new Map<number, string | null>();
  #streamedText = false;

  *event(event: AgentEvent): Generator<AGUIEvent> {
    if (event.partial) {
      if (event.chunk) yield* this.#chunk(event.chunk);
      return;
    }
    if (event.error) {
      yield* this.close();
      this.error = event.error;
      return;
    }
    const message = event.message;
    if (message?.role === 'assistant') yield* this.#reply(message);
    else if (message?.role === 'tool') yield* this.#result(message);
    const delta = Object.entries(event.actions.stateDelta ?? {}).filter(([key]) => !key.startsWith('temp:'));
    if (delta.length > 0) {
      const patch = delta.map(([key, value]) => ({
        op: 'add' as const,
        path: `/${pointer(key)}`,
        value: value ?? null,
      }));
      yield { type: EventType.STATE_DELTA, delta: patch };
    }
    if (event.custom) yield { type: EventType.CUSTOM, name: event.custom.type, value: event.custom.data };
    for (const interrupt of event.interrupts ?? []) this.#interrupt(interrupt);
  }

  *close(): Generator<AGUIEvent> {
    if (this.#text !== undefined) yield { type: EventType.TEXT_MESSAGE_END, messageId: this.#text };
    this.#text = undefined;
  }

  #messageId(): string {
    this.#messages += 1;
    return `msg-${this.#messages}`;
  }

  *#chunk(chunk: MessageChunk): Generator<AGUIEvent> {
    if (chunk.text) {
      if (this.#text === undefined) {
        this.#text = this.#messageId();
        yield { type: EventType.TEXT_MESSAGE_START, messageId: this.#text, role: 'assistant' };
      }
      this.#streamedText = true;
      yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.#text, delta: chunk.text };
    }
    for (const delta of chunk.toolCallDeltas ?? []) {
      let id = this.#calls.get(delta.index);
      if (id === undefined) {
        id = delta.id && delta.name ? delta.id : null;
        this.#calls.set(delta.index, id);
        if (id !== null && delta.name)
          yield {
            type: EventType.TOOL_CALL_START,
            toolCallId: id,
            toolCallName: delta.name,
            ...(this.#text === undefined ? {} : { parentMessageId: this.#text }),
          };
      }
      if (id !== null && delta.arguments)
        yield { type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: delta.arguments };
    }
  }

  *#reply(message: AssistantMessage): Generator<AGUIEvent> {
    const text = messageText(message);
    const parent = this.#text ?? (text === '' ? undefined : this.#messageId());
    if (!this.#streamedText && text !== '' && parent !== undefined) {
      yield { type: EventType.TEXT_MESSAGE_START, messageId: parent, role: 'assistant' };
      yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: parent, delta: text };
      yield { type: EventType.TEXT_MESSAGE_END, messageId: parent };
    }
    yield* this.close();
    const streamed = new Set([...this.#calls.values()].filter((id): id is string => id !== null));
    for (const call of message.toolCalls ?? []) {
      if (!streamed.has(call.id)) {
        yield {
          type: EventType.TOOL_CALL_START,
          toolCallId: call.id,
          toolCallName: call.name,
          ...(parent === undefined ? {} : { parentMessageId: parent }),
        };
        if (call.arguments !== '')
          yield { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.arguments };
      }
      yield { type: EventType.TOOL_CALL_END, toolCallId: call.id };
    }
    this.#calls.clear();
    this.#streamedText = false;
  }

  *#result(message: ToolMessage): Generator<AGUIEvent> {
    yield {
      type: EventType.TOOL_CALL_RESULT,
      messageId: message.id ?? this.#messageId(),
      toolCallId: message.toolCallId,
      content: messageText(message),
      role: 'tool',
    };
  }

  #interrupt(interrupt: AgentInterrupt): void {
    const value = interrupt.value as { type?: unknown; calls?: unknown } | null;
    if (
      typeof value === 'object' &&
      value !== null &&
      value.type === 'tool-approval' &&
      Array.isArray(value.calls)
    ) {
      for (const call of value.calls as { id: string; name: string; arguments: string }[])
        this.interrupts.push({
          id: approvalId(interrupt.id, call.id),
          reason: 'tool_approval',
          message: `Run ${call.name}?`,
          toolCallId: call.id,
          metadata: { path: [...interrupt.path] },
        });
      return;
    }
    this.interrupts.push({
      id: encodeURIComponent(interrupt.id),
      reason: 'input',
      metadata: { value: interrupt.value, path: [...interrupt.path] },
    });
  }
}

/** A JSON Pointer segment (RFC 6901). */
function pointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
