import type { Message, Task } from '@a2a-js/sdk';
import { textOfParts } from '../parts/a2a-parts.js';
import { type PendingInterrupt, WEFT_METADATA } from './task-publisher.js';

/** The pauses a task waiting for input holds (from its `input-required` status message). */
export function pendingOf(task: Task | undefined): PendingInterrupt[] {
  const weft = task?.status?.message?.metadata?.[WEFT_METADATA] as
    | { readonly interrupts?: readonly PendingInterrupt[] }
    | undefined;
  return [...(weft?.interrupts ?? [])];
}

/**
 * What a client's message answers the pauses with, as `runner.resume` and `Command({ resume })` take it:
 * the first data part's value, else the message's text (`yes`/`no` answering a tool approval are
 * `true`/`false`). With several pauses, a data part whose keys are all pending ids answers each by id;
 * any other answer is given to every pause.
 *
 * @example
 * ```ts
 * import type { Message } from '@a2a-js/sdk';
 * declare const message: Message; // the client's answer: a text part "yes"
 * answerOf(message, [{ id: 'i1', value: { type: 'tool-approval', agent: 'desk', calls: [] } }]); // true
 * ```
 */
export function answerOf(message: Message, pending: readonly PendingInterrupt[]): unknown {
  const data = message.parts.find((part) => part.content?.$case === 'data')?.content;
  let answer: unknown = data?.$case === 'data' ? (data.value ?? null) : textOfParts(message.parts);
  if (pending.length <= 1) {
    const [only] = pending;
    return only && isApproval(only.value) && typeof answer === 'string' ? yesOrNo(answer) : answer;
  }
  if (isRecord(answer) && Object.keys(answer).every((key) => pending.some((p) => p.id === key)))
    return answer;
  const byId: Record<string, unknown> = {};
  for (const pause of pending) {
    answer = isApproval(pause.value) && typeof answer === 'string' ? yesOrNo(answer) : answer;
    byId[pause.id] = answer;
  }
  return byId;
}

/**
 * The question a pause asks, as text for the `input-required` status message: a string value, a
 * `question`/`message`/`prompt` field, a tool approval spelled out, else the value's JSON.
 *
 * @example
 * ```ts
 * questionOf({ question: 'Which date?' }); // 'Which date?'
 * ```
 */
export function questionOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isApproval(value)) {
    const calls = value.calls.map((call) => `${call.name}(${call.arguments})`).join(', ');
    return `Approve ${calls}? Answer yes or no.`;
  }
  if (isRecord(value)) {
    for (const field of ['question', 'message', 'prompt', 'text']) {
      const text = value[field];
      if (typeof text === 'string') return text;
    }
  }
  return JSON.stringify(value ?? null);
}

/** The question of every pause, one per line. */
export function questionsOf(pending: readonly PendingInterrupt[]): string {
  return pending.map((pause) => questionOf(pause.value)).join('\n');
}

interface Approval {
  readonly type: 'tool-approval';
  readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: string }>;
}

function isApproval(value: unknown): value is Approval {
  return isRecord(value) && value.type === 'tool-approval' && Array.isArray(value.calls);
}

function yesOrNo(text: string): unknown {
  const word = text.trim().toLowerCase();
  if (/^(yes|y|approve|approved|ok|okay|true)$/.test(word)) return true;
  if (/^(no|n|reject|rejected|deny|denied|false)$/.test(word)) return false;
  return text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
