import { Refusal } from '../http/request-guard.js';
import { parseApprovalId } from '../interrupts/approval-id.js';

/**
 * What one AG-UI `RunAgentInput` asks of the agent: a user turn, or the resume of the paused one.
 *
 * @example
 * ```ts
 * const run: AgUiTurn = { threadId: 't1', runId: 'r1', message: 'Hi' };
 * ```
 */
export type AgUiTurn = { readonly threadId: string; readonly runId: string } & (
  | { readonly message: string }
  | { readonly decisions: Readonly<Record<string, unknown>> }
);

const MAX_ID = 256;

/**
 * Reads the `RunAgentInput` an AG-UI client (`HttpAgent`) posts. With `resume` entries it resumes the
 * paused run: a tool-approval interrupt's entry answers its call (`payload` `true`/`false` or
 * `{ approved, reason }`; `cancelled` rejects it), another interrupt's entry passes `payload` as the
 * answer. Without, the last message must be the user's: its text is the turn.
 *
 * @throws Refusal 400 `INVALID_BODY` naming the field at fault.
 * @example
 * ```ts
 * parseAgUiRequest({ threadId: 't1', runId: 'r1', messages: [{ id: 'm1', role: 'user', content: 'Hi' }], tools: [], context: [] });
 * // { threadId: 't1', runId: 'r1', message: 'Hi' }
 * ```
 */
export function parseAgUiRequest(body: unknown): AgUiTurn {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('the body must be a RunAgentInput object');
  const { threadId, runId, messages, resume } = body as Record<string, unknown>;
  for (const [name, value] of [
    ['threadId', threadId],
    ['runId', runId],
  ] as const)
    if (typeof value !== 'string' || value === '' || value.length > MAX_ID)
      throw invalid(`"${name}" must be an id of 1 to ${MAX_ID} characters`);
  const ids = { threadId: threadId as string, runId: runId as string };
  if (resume !== undefined && (!Array.isArray(resume) || resume.length > 0))
    return { ...ids, decisions: decisionsOf(resume) };
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalid('"messages" must be a non-empty array');
  const index = messages.length - 1;
  const last = messages[index] as { role?: unknown; content?: unknown } | null;
  if (typeof last !== 'object' || last === null || last.role !== 'user')
    throw invalid(`"messages[${index}].role" must be "user" (or send "resume" entries)`);
  return { ...ids, message: textOf(last.content, index) };
}

function textOf(content: unknown, index: number): string {
  if (typeof content === 'string' && content.trim() !== '') return content;
  if (Array.isArray(content)) {
    const other = content.find((p: { type?: unknown }) => p?.type !== 'text');
    if (other)
      throw invalid(
        `"messages[${index}].content" has a "${String(other.type)}" part; only text is sent to the agent`,
      );
    const text = content.map((p: { text?: unknown }) => (typeof p.text === 'string' ? p.text : '')).join('');
    if (text.trim() !== '') return text;
  }
  throw invalid(`"messages[${index}].content" has no text`);
}

function decisionsOf(resume: unknown): Record<string, unknown> {
  if (!Array.isArray(resume)) throw invalid('"resume" must be an array of resume entries');
  const decisions: Record<string, unknown> = {};
  resume.forEach((entry: { interruptId?: unknown; status?: unknown; payload?: unknown } | null, i) => {
    if (typeof entry?.interruptId !== 'string') throw invalid(`"resume[${i}].interruptId" must be a string`);
    if (entry.status !== 'resolved' && entry.status !== 'cancelled')
      throw invalid(`"resume[${i}].status" must be "resolved" or "cancelled"`);
    const approval = parseApprovalId(entry.interruptId);
    if (approval) {
      const own = (decisions[approval.interruptId] ?? {}) as Record<string, unknown>;
      const answer = entry.status === 'cancelled' ? { approved: false, reason: 'cancelled' } : entry.payload;
      decisions[approval.interruptId] = { ...own, [approval.toolCallId]: answer };
      return;
    }
    if (entry.status === 'cancelled')
      throw invalid(
        `"resume[${i}]" cancels interrupt "${entry.interruptId}", which only a resolved answer continues`,
      );
    decisions[decodeURIComponent(entry.interruptId)] = entry.payload;
  });
  return decisions;
}

function invalid(message: string): Refusal {
  return new Refusal(400, 'INVALID_BODY', message);
}
