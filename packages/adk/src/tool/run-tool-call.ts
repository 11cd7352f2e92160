import { isGraphPause, type NodeContext } from '@weft/compose';
import type { ToolArtifacts } from '../artifact/tool-artifacts.js';
import { AdkError } from '../errors/adk-error.js';
import { ToolError, type ToolErrorCode } from '../errors/tool-error.js';
import { onAbort } from '../internal/abort.js';
import { assertNever } from '../internal/assert-never.js';
import { describeError, toJsonValue } from '../internal/json.js';
import type { SessionMemory } from '../memory/session-memory.js';
import type { Message, MessageContent, ToolCall, ToolMessage } from '../message/message.js';
import { toolMessage } from '../message/message-constructors.js';
import type { RunIdentity } from '../session/run-identity.js';
import type { SessionState } from './session-state.js';
import type { AnyTool } from './tool.js';
import { isToolResult } from './tool-result.js';

/**
 * What one call needs from the batch it belongs to.
 *
 * @example
 * ```ts
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const call = { id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' };
 * const options: RunToolCallOptions = {
 *   tools: new Map([['add', add]]),
 *   signal: new AbortController().signal,
 *   timeoutMs: 1_000,
 *   state: new MemorySessionState(),
 *   emit: () => {},
 * };
 * const outcome = await runToolCall(call, options); // { kind: 'result', message: <tool message "3"> }
 * ```
 */
export interface RunToolCallOptions {
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly signal: AbortSignal;
  readonly timeoutMs: number | undefined;
  readonly state: SessionState;
  readonly emit: (call: ToolCall, data: unknown) => void;
  /** The graph node running the calls (given to tools as `context.nodeContext`). */
  readonly nodeContext?: NodeContext;
  /** The conversation the calls were made in (given to tools as `context.messages`). */
  readonly messages?: readonly Message[];
  /** The session's artifacts (given to tools as `context.artifacts`). */
  readonly artifacts?: ToolArtifacts;
  /** Who the run is for (given to tools as `context.run`). */
  readonly run?: RunIdentity;
  /** The Runner's memory service, bound to the session (given to tools as `context.memory`). */
  readonly memory?: SessionMemory;
}

/**
 * How one call ended: a result, a failure to report, or an abort.
 *
 * @example
 * ```ts
 * function messageOf(outcome: ToolCallOutcome): string {
 *   if (outcome.kind === 'error') throw outcome.error;
 *   return outcome.kind === 'aborted' ? 'aborted' : 'answered';
 * }
 * ```
 */
export type ToolCallOutcome =
  | { readonly kind: 'result'; readonly message: ToolMessage }
  | { readonly kind: 'error'; readonly error: ToolError }
  | { readonly kind: 'aborted' };

type Settled =
  | { kind: 'value'; value: unknown }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'timeout' | 'aborted' };

/**
 * The tool message answering a call that was cancelled before it finished.
 *
 * @example
 * ```ts
 * const call = { id: 'call_1', name: 'search', arguments: '{}' };
 * const message = abortedToolMessage(call); // status 'error': "Aborted: the run was cancelled before tool "search" finished; …"
 * ```
 */
export function abortedToolMessage(call: ToolCall): ToolMessage {
  return toolMessage(
    `Aborted: the run was cancelled before tool "${call.name}" finished; it returned no result.`,
    {
      toolCallId: call.id,
      name: call.name,
      status: 'error',
    },
  );
}

/**
 * The tool message telling the model about a failed call.
 *
 * @example
 * ```ts
 * const call = { id: 'call_1', name: 'save', arguments: '{}' };
 * const error = new ToolError('TOOL_ERROR', 'disk full', { tool: 'save', toolCallId: 'call_1' });
 * const message = errorToolMessage(call, error); // status 'error', content 'Error: disk full'
 * ```
 */
export function errorToolMessage(call: ToolCall, error: ToolError): ToolMessage {
  const message = toolMessage(`Error: ${error.message}`, {
    toolCallId: call.id,
    name: call.name,
    status: 'error',
  });
  failures.set(message, error.code === 'TOOL_ERROR' && error.cause instanceof Error ? error.cause : error);
  return message;
}

/** The error behind each tool message {@link errorToolMessage} made (read for the `tool-end` event). */
const failures = new WeakMap<ToolMessage, Error>();

/**
 * The error a failed call's tool message stands for: what the tool threw (a `TOOL_ERROR`'s cause), or
 * the `ToolError` itself for a timeout, bad arguments or an unknown tool; `undefined` for any other
 * message (an error result the tool returned, or one middleware made).
 */
export function toolFailureOf(message: ToolMessage): Error | undefined {
  return failures.get(message);
}

function toContent(value: unknown): MessageContent {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return [{ type: 'json', value: toJsonValue(value) }];
}

/** Runs `execute` until it settles, the call times out, or the batch is aborted, whichever comes first. */
function settle(tool: AnyTool, args: Record<string, unknown>, call: ToolCall, options: RunToolCallOptions) {
  const controller = new AbortController();
  const timeoutMs = tool.timeoutMs ?? options.timeoutMs;
  if (options.signal.aborted) return Promise.resolve<Settled>({ kind: 'aborted' });
  return new Promise<Settled>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settled: Settled): void => {
      clearTimeout(timer);
      stopListening();
      if (settled.kind === 'aborted') controller.abort(options.signal.reason);
      else if (settled.kind === 'timeout') {
        controller.abort(new AdkError('TOOL_TIMEOUT', `tool "${call.name}" timed out after ${timeoutMs} ms`));
      }
      resolve(settled);
    };
    const stopListening = onAbort(options.signal, () => finish({ kind: 'aborted' }));
    if (timeoutMs !== undefined) timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    const context = {
      toolCallId: call.id,
      toolName: call.name,
      signal: controller.signal,
      emit: (data: unknown) => options.emit(call, data),
      state: options.state,
      ...(options.nodeContext ? { nodeContext: options.nodeContext } : {}),
      ...(options.messages ? { messages: options.messages } : {}),
      ...(options.nodeContext?.store ? { store: options.nodeContext.store } : {}),
      ...(options.artifacts ? { artifacts: options.artifacts } : {}),
      ...(options.run ? { run: options.run } : {}),
      ...(options.memory ? { memory: options.memory } : {}),
    };
    Promise.resolve()
      .then(() => tool.execute(args, context))
      .then(
        (value) => finish({ kind: 'value', value }),
        (error: unknown) => finish({ kind: 'thrown', error }),
      );
  });
}

function failure(
  code: ToolErrorCode,
  message: string,
  call: ToolCall,
  cause?: unknown,
): { readonly kind: 'error'; readonly error: ToolError } {
  const options = { tool: call.name, toolCallId: call.id, ...(cause === undefined ? {} : { cause }) };
  return { kind: 'error', error: new ToolError(code, message, options) };
}

/**
 * The outcome of a call answered with `value` (what a tool returned, or what a `beforeTool` hook
 * answered with): a string as text, a `toolResult(...)` as it is, anything else as JSON; a value that is
 * not JSON is a `TOOL_ERROR` failure.
 *
 * @example
 * ```ts
 * const call = { id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' };
 * const outcome = valueOutcome(call, { sky: 'sunny' }); // { kind: 'result', message: <tool message with a JSON part> }
 * ```
 */
export function valueOutcome(
  call: ToolCall,
  value: unknown,
): Exclude<ToolCallOutcome, { readonly kind: 'aborted' }> {
  try {
    const content = isToolResult(value) ? value.content : toContent(value);
    const status = isToolResult(value) && value.isError ? 'error' : 'success';
    return {
      kind: 'result',
      message: toolMessage(content, { toolCallId: call.id, name: call.name, status }),
    };
  } catch (error) {
    const detail = describeError(error);
    return failure(
      'TOOL_ERROR',
      `Tool "${call.name}" returned a value that is not JSON: ${detail}`,
      call,
      error,
    );
  }
}

/**
 * Runs one tool call: finds the tool, validates the arguments, executes with the timeout, and turns
 * every failure into a {@link ToolError} (or an abort) instead of throwing. Only the pause of a graph the
 * tool ran nested under its node (`context.nodeContext.runSubgraph`) is rethrown, so the node pauses.
 *
 * @example
 * ```ts
 * const echo = tool({
 *   name: 'echo',
 *   description: 'Echoes the text',
 *   parameters: z.object({ text: z.string() }),
 *   execute: ({ text }) => text,
 * });
 * const outcome = await runToolCall(
 *   { id: 'call_1', name: 'echo', arguments: '{"text":"hi"}' },
 *   {
 *     tools: new Map([['echo', echo]]),
 *     signal: AbortSignal.timeout(5_000),
 *     timeoutMs: undefined,
 *     state: new MemorySessionState(),
 *     emit: () => {},
 *   },
 * );
 * if (outcome.kind === 'result') console.log(outcome.message.content); // 'hi'
 * ```
 */
export async function runToolCall(call: ToolCall, options: RunToolCallOptions): Promise<ToolCallOutcome> {
  if (options.signal.aborted) return { kind: 'aborted' };
  const tool = options.tools.get(call.name);
  if (tool === undefined) {
    const available = [...options.tools.keys()].map((name) => `"${name}"`).join(', ') || 'none';
    return failure('TOOL_NOT_FOUND', `Unknown tool "${call.name}". Available tools: ${available}.`, call);
  }
  const parsed = tool.parseArguments(call.arguments);
  if (!parsed.success) return failure('INVALID_TOOL_ARGUMENTS', parsed.message, call);
  const settled = await settle(tool, parsed.args, call, options);
  switch (settled.kind) {
    case 'aborted':
      return { kind: 'aborted' };
    case 'timeout':
      return failure(
        'TOOL_TIMEOUT',
        `Tool "${call.name}" timed out after ${tool.timeoutMs ?? options.timeoutMs} ms.`,
        call,
      );
    case 'thrown':
      // A nested graph the tool ran paused: the pause belongs to the graph, not to the model.
      if (isGraphPause(settled.error)) throw settled.error;
      if (options.signal.aborted) return { kind: 'aborted' };
      return failure(
        'TOOL_ERROR',
        `Tool "${call.name}" failed: ${describeError(settled.error)}`,
        call,
        settled.error,
      );
    case 'value':
      return valueOutcome(call, settled.value);
    default:
      return assertNever(settled);
  }
}
