import type { ToolCall } from '../message/message.js';

/** What a tool-approval interrupt asks. */
export interface ToolApprovalRequest {
  readonly type: 'tool-approval';
  readonly agent: string;
  readonly calls: ReadonlyArray<Pick<ToolCall, 'id' | 'name' | 'arguments'>>;
}

/** A person's answer to one call. */
export interface ToolDecision {
  readonly approved: boolean;
  /** Told to the model when the call is rejected. */
  readonly reason?: string;
}

/**
 * Reads a resume value as decisions per tool call id: `true`/`false` or `{ approved }` answer every
 * call; `{ [toolCallId]: boolean | { approved, reason } }` answers each. A call without an answer is
 * rejected (never run without approval).
 *
 * @example
 * ```ts
 * toolDecisions({ call_1: true, call_2: { approved: false, reason: 'too expensive' } }, ['call_1', 'call_2']);
 * ```
 */
export function toolDecisions(answer: unknown, callIds: readonly string[]): Map<string, ToolDecision> {
  const decisions = new Map<string, ToolDecision>();
  const one = asDecision(answer);
  for (const id of callIds) {
    const own =
      typeof answer === 'object' && answer !== null && id in answer
        ? asDecision((answer as Record<string, unknown>)[id])
        : undefined;
    decisions.set(id, own ?? one ?? { approved: false, reason: 'no decision was given' });
  }
  return decisions;
}

function asDecision(value: unknown): ToolDecision | undefined {
  if (typeof value === 'boolean') return { approved: value };
  if (typeof value === 'object' && value !== null && typeof (value as ToolDecision).approved === 'boolean') {
    const { approved, reason } = value as ToolDecision;
    return reason === undefined ? { approved } : { approved, reason };
  }
  return undefined;
}
