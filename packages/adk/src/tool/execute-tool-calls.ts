import { AdkError } from '../errors/adk-error.js';
import { onAbort } from '../internal/abort.js';
import { mapWithConcurrency } from '../internal/map-with-concurrency.js';
import type { ToolCall, ToolMessage } from '../message/message.js';
import { abortedToolMessage, errorToolMessage, runToolCall } from './run-tool-call.js';
import { MemorySessionState, type SessionState } from './session-state.js';
import type { AnyTool } from './tool.js';

/**
 * Data a tool published with `context.emit`, tagged with its call.
 *
 * @example
 * ```ts
 * const onEmit = (event: ToolEmitEvent) => console.log(event.tool, event.toolCallId, event.data);
 * ```
 */
export interface ToolEmitEvent {
  readonly tool: string;
  readonly toolCallId: string;
  readonly data: unknown;
}

/**
 * Options of {@link executeToolCalls}.
 *
 * @example
 * ```ts
 * const options: ExecuteToolCallsOptions = { concurrency: 4, timeoutMs: 30_000, onToolError: 'return' };
 * ```
 */
export interface ExecuteToolCallsOptions {
  /** How many calls run at once (default: all). */
  readonly concurrency?: number;
  /**
   * `'return'` (default): unknown tools, bad arguments, timeouts and thrown errors become tool messages
   * the model can read. `'throw'`: the first such failure rejects with a `ToolError` and aborts the rest.
   */
  readonly onToolError?: 'return' | 'throw';
  /** Cancels the batch: calls not finished by then are answered with an "aborted" tool message. */
  readonly signal?: AbortSignal;
  /** Timeout of each call in milliseconds, unless the tool sets its own (default: none). */
  readonly timeoutMs?: number;
  /** The session state tools read and write (default: a fresh in-memory state for this batch). */
  readonly state?: SessionState;
  /** Receives what tools publish with `context.emit`. */
  readonly onEmit?: (event: ToolEmitEvent) => void;
}

function toolsByName(tools: readonly AnyTool[]): Map<string, AnyTool> {
  const byName = new Map<string, AnyTool>();
  for (const entry of tools) {
    if (byName.has(entry.name)) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `two tools are named "${entry.name}"; tool names must be unique`,
      );
    }
    byName.set(entry.name, entry);
  }
  return byName;
}

function checkConcurrency(concurrency: number): number {
  if (!(concurrency >= 1)) {
    throw new AdkError('INVALID_ARGUMENT', `concurrency must be a number of at least 1, got ${concurrency}`);
  }
  return concurrency;
}

function abandonedBy(signal: AbortSignal | undefined): { promise: Promise<void>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<void>((resolve) => {
    dispose = onAbort(signal, resolve);
  });
  return { promise, dispose };
}

/**
 * Runs the tool calls of an assistant message in parallel (up to `concurrency` at once) and answers
 * each with a tool message, in the order of the calls. Failures become tool messages the model can
 * read (or a thrown `ToolError` with `onToolError: 'throw'`). On abort it returns at once: finished
 * calls keep their results and the others are answered "aborted", so the history stays valid.
 *
 * @throws {ToolError} with `onToolError: 'throw'`: `TOOL_NOT_FOUND`, `INVALID_TOOL_ARGUMENTS`,
 * `TOOL_TIMEOUT` or `TOOL_ERROR`, naming the tool and the call id.
 * @throws {AdkError} `INVALID_ARGUMENT` for two tools with one name or a concurrency below 1.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }]);
 * const messages: Message[] = [userMessage('What is 1 + 2?')];
 * const reply = await model.generate(messages, { tools: [add.spec] });
 * const results = await executeToolCalls(reply.toolCalls ?? [], [add], { signal: AbortSignal.timeout(5_000) });
 * messages.push(reply, ...results); // the tool message says "3"
 * ```
 */
export async function executeToolCalls(
  calls: readonly ToolCall[],
  tools: readonly AnyTool[],
  options: ExecuteToolCallsOptions = {},
): Promise<ToolMessage[]> {
  const byName = toolsByName(tools);
  const concurrency = checkConcurrency(options.concurrency ?? Number.POSITIVE_INFINITY);
  const batch = new AbortController();
  const stopForwarding = onAbort(options.signal, () => batch.abort(options.signal?.reason));
  const abandoned = abandonedBy(options.signal);
  const results = new Array<ToolMessage | undefined>(calls.length);
  const runOptions = {
    tools: byName,
    signal: batch.signal,
    timeoutMs: options.timeoutMs,
    state: options.state ?? new MemorySessionState(),
    emit: (call: ToolCall, data: unknown) => options.onEmit?.({ tool: call.name, toolCallId: call.id, data }),
  };
  const work = mapWithConcurrency(calls, concurrency, async (call, index) => {
    const outcome = await runToolCall(call, runOptions);
    if (outcome.kind === 'result') results[index] = outcome.message;
    else if (outcome.kind === 'error') {
      if (options.onToolError === 'throw') {
        batch.abort(outcome.error);
        throw outcome.error;
      }
      results[index] = errorToolMessage(call, outcome.error);
    }
  });
  work.catch(() => {}); // observed below, or deliberately dropped when the batch is abandoned on abort
  try {
    await Promise.race([work, abandoned.promise]);
  } finally {
    stopForwarding();
    abandoned.dispose();
  }
  return calls.map((call, index) => results[index] ?? abortedToolMessage(call));
}
