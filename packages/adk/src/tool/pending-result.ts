import { AdkError } from '../errors/adk-error.js';
import type { JsonValue, Message, MessageContent, ToolCall, ToolMessage } from '../message/message.js';
import { toolMessage } from '../message/message-constructors.js';

const PENDING_MARK = '__weft_pending__';

/**
 * What a long-running tool returns when its work continues elsewhere (a job queue, a webhook, a
 * person). In a tool made with `longRunning: true` it is the call's first status, which the model reads
 * at once (`{ status: 'pending', pendingId: id, info }`). In any other tool the run pauses durably with a
 * `tool-pending` interrupt naming `id` (every pending call of the step its own interrupt), and
 * `runner.resume({ userId, sessionId, decisions })` or a tool message sent with `runner.run` — from any
 * process over the same stores — delivers the tool's result to the model.
 *
 * @example
 * ```ts
 * const render = tool({
 *   name: 'render_video',
 *   description: 'Render a video (takes minutes)',
 *   parameters: z.object({ script: z.string() }),
 *   execute: async ({ script }) => {
 *     const response = await fetch('https://render.example/jobs', { method: 'POST', body: script });
 *     const { jobId } = (await response.json()) as { jobId: string };
 *     return pending(jobId, { eta: '5 min' });
 *   },
 * });
 * ```
 */
export function pending(id: string, info?: unknown): PendingToolResult {
  return { [PENDING_MARK]: true, id, ...(info === undefined ? {} : { info }) };
}

/**
 * A long-running tool's "pending" result (see {@link pending}).
 *
 * @example
 * ```ts
 * const result: PendingToolResult = pending('job-42');
 * ```
 */
export interface PendingToolResult {
  readonly [PENDING_MARK]: true;
  readonly id: string;
  readonly info?: unknown;
}

/**
 * The interrupt a pending tool call (of a tool that is not long-running) pauses the run with: one per
 * pending call of the step, all announced together.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const render = tool({
 *   name: 'render_video',
 *   description: 'Render a video (takes minutes)',
 *   parameters: z.object({}),
 *   execute: () => pending('job-42'),
 * });
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'render_video', arguments: {} }] }]);
 * const agent = new ChatModelAgent({ name: 'studio', model, tools: [render] });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Render my video' })) {
 *   const waits = event.interrupts?.filter((i) => (i.value as ToolPendingRequest).type === 'tool-pending');
 *   if (waits?.length) console.log(waits[0]?.value); // { type: 'tool-pending', pendingId: 'job-42', … }
 * }
 * ```
 */
export interface ToolPendingRequest {
  readonly type: 'tool-pending';
  readonly agent: string;
  readonly tool: string;
  readonly toolCallId: string;
  /** The id the tool returned (a job id, a ticket). */
  readonly pendingId: string;
  readonly info?: unknown;
}

/**
 * The pending result a tool message carries, if any.
 *
 * @example
 * ```ts
 * const message = toolMessage([{ type: 'json', value: { __weft_pending__: true, id: 'job-42' } }], {
 *   toolCallId: 'call_1',
 *   name: 'render_video',
 * });
 * const waiting = pendingOf(message)?.id; // 'job-42'
 * ```
 */
export function pendingOf(message: ToolMessage): PendingToolResult | undefined {
  if (typeof message.content === 'string' || message.status === 'error') return undefined;
  const part = message.content.find((p) => p.type === 'json');
  const value = part && 'value' in part ? (part.value as Partial<PendingToolResult> | null) : undefined;
  return value && typeof value === 'object' && value[PENDING_MARK] === true && typeof value.id === 'string'
    ? (value as PendingToolResult)
    : undefined;
}

/**
 * The tool message that delivers a long-running call's result: a tool message as it is (its content and
 * status, e.g. one a client sent with `runner.run`), a string as text, anything else as JSON.
 *
 * @example
 * ```ts
 * const call = { id: 'call_1', name: 'render_video', arguments: '{}' };
 * deliveredMessage(call, { url: 'https://cdn/video.mp4' }, 'studio'); // a tool message with the JSON result
 * ```
 */
export function deliveredMessage(call: ToolCall, result: unknown, author: string): ToolMessage {
  if (isToolMessage(result)) {
    const { content, status } = result;
    return {
      ...toolMessage(content, { toolCallId: call.id, name: call.name, ...(status ? { status } : {}) }),
      author,
    };
  }
  // Resume values arrive as JSON (they are checkpointed), so the cast only names what they are.
  const content: MessageContent =
    typeof result === 'string' ? result : [{ type: 'json', value: (result ?? null) as JsonValue }];
  return { ...toolMessage(content, { toolCallId: call.id, name: call.name }), author };
}

function isToolMessage(value: unknown): value is ToolMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { role?: unknown }).role === 'tool' &&
    typeof (value as { toolCallId?: unknown }).toolCallId === 'string' &&
    'content' in value
  );
}

/**
 * The tool call of a conversation that a tool message sent in from outside answers (a long-running
 * call's progress or result, as Google ADK's clients send function responses).
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the `toolCallId` when no call of the conversation has it.
 * @example
 * ```ts
 * const messages = [
 *   userMessage('Render my video'),
 *   assistantMessage('', { toolCalls: [{ id: 'call_1', name: 'render_video', arguments: '{}' }] }),
 * ];
 * const call = callAnswered(messages, toolMessage('done', { toolCallId: 'call_1', name: 'render_video' })); // the render_video call
 * ```
 */
export function callAnswered(messages: readonly Message[], message: ToolMessage): ToolCall {
  for (let i = messages.length - 1; i >= 0; i--) {
    const candidate = messages[i] as Message;
    if (candidate.role !== 'assistant') continue;
    const call = candidate.toolCalls?.find((c) => c.id === message.toolCallId);
    if (call) return call;
  }
  throw new AdkError(
    'INVALID_ARGUMENT',
    `the tool message answers tool call "${message.toolCallId}", but the conversation holds no call with that id; send results only for calls the agent made`,
  );
}
