import { Refusal } from '../http/request-guard.js';
import { parseApprovalId } from '../interrupts/approval-id.js';

/**
 * What one `useChat` request asks of the agent: a new user turn, or the resume of a paused one.
 *
 * @example
 * ```ts
 * const turn: ChatTurn = { chatId: 'chat_1', message: 'What is 1 + 2?' };
 * ```
 */
export type ChatTurn =
  | { readonly chatId: string; readonly message: string }
  | {
      readonly chatId: string;
      /** Answers per interrupt id (tool approvals: `{ [toolCallId]: { approved, reason } }`). */
      readonly decisions: Readonly<Record<string, unknown>>;
      /** The tool calls the resumed message already shows. */
      readonly knownToolCallIds: ReadonlySet<string>;
      /** Calls the user rejected. */
      readonly deniedToolCallIds: ReadonlySet<string>;
    };

interface PartLike {
  readonly type?: unknown;
  readonly text?: unknown;
  readonly toolCallId?: unknown;
  readonly state?: unknown;
  readonly approval?: { readonly id?: unknown; readonly approved?: unknown; readonly reason?: unknown };
}

const MAX_CHAT_ID = 256;

/**
 * Reads the body `DefaultChatTransport` posts (`{ id, messages, trigger, … }`). A last `user` message
 * starts a turn with its text; a last `assistant` message whose tool parts hold approval answers
 * (`addToolApprovalResponse`) resumes the turn with them. `body.resume` (`{ [interruptId]: value }`, sent
 * through `sendMessage`'s `body` option) answers other interrupts and resumes too.
 *
 * @throws Refusal 400 `INVALID_BODY` naming the field at fault.
 * @example
 * ```ts
 * parseChatRequest({ id: 'c1', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }] });
 * // { chatId: 'c1', message: 'Hi' }
 * ```
 */
export function parseChatRequest(body: unknown): ChatTurn {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('the body must be a JSON object');
  const { id, messages, resume } = body as { id?: unknown; messages?: unknown; resume?: unknown };
  if (typeof id !== 'string' || id === '' || id.length > MAX_CHAT_ID)
    throw invalid(`"id" must be a chat id of 1 to ${MAX_CHAT_ID} characters`);
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalid('"messages" must be a non-empty array');
  const last = messages[messages.length - 1] as { role?: unknown; parts?: unknown } | null;
  if (typeof last !== 'object' || last === null || !Array.isArray(last.parts))
    throw invalid(`"messages[${messages.length - 1}].parts" must be an array`);
  const parts = last.parts as PartLike[];
  if (resume !== undefined && (typeof resume !== 'object' || resume === null || Array.isArray(resume)))
    throw invalid('"resume" must be an object of answers by interrupt id');
  if (last.role === 'user' && resume === undefined)
    return { chatId: id, message: userText(parts, messages.length - 1) };
  if (last.role !== 'assistant' && resume === undefined)
    throw invalid(`"messages[${messages.length - 1}].role" must be "user" or "assistant"`);
  return {
    chatId: id,
    ...answers(last.role === 'assistant' ? parts : [], resume as Record<string, unknown> | undefined),
  };
}

function userText(parts: readonly PartLike[], index: number): string {
  const unsupported = parts.find((p) => p.type !== 'text' && p.type !== 'step-start');
  if (unsupported)
    throw invalid(
      `"messages[${index}]" has a "${String(unsupported.type)}" part; only text parts are sent to the agent`,
    );
  const text = parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
  if (text.trim() === '') throw invalid(`"messages[${index}]" has no text`);
  return text;
}

function answers(parts: readonly PartLike[], resume: Record<string, unknown> | undefined) {
  const decisions: Record<string, unknown> = { ...resume };
  const knownToolCallIds = new Set<string>();
  const deniedToolCallIds = new Set<string>();
  for (const part of parts) {
    if (typeof part.toolCallId !== 'string') continue;
    knownToolCallIds.add(part.toolCallId);
    if (part.state !== 'approval-responded' || typeof part.approval?.id !== 'string') continue;
    const ids = parseApprovalId(part.approval.id);
    if (ids === undefined || ids.toolCallId !== part.toolCallId)
      throw invalid(
        `the approval id "${part.approval.id}" of tool call "${part.toolCallId}" was not issued by this route`,
      );
    const approved = part.approval.approved === true;
    if (!approved) deniedToolCallIds.add(part.toolCallId);
    const reason = typeof part.approval.reason === 'string' ? { reason: part.approval.reason } : {};
    const own = (decisions[ids.interruptId] ?? {}) as Record<string, unknown>;
    decisions[ids.interruptId] = { ...own, [ids.toolCallId]: { approved, ...reason } };
  }
  if (Object.keys(decisions).length === 0)
    throw invalid(
      'the last message is the assistant\'s but answers no approval and "resume" is absent: nothing to resume',
    );
  return { decisions, knownToolCallIds, deniedToolCallIds };
}

function invalid(message: string): Refusal {
  return new Refusal(400, 'INVALID_BODY', message);
}
