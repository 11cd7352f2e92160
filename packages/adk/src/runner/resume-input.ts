import type { AgentGraph } from '../agent/agent-graph.js';
import type { Message } from '../message/message.js';
import { callAnswered, type ToolPendingRequest } from '../tool/pending-result.js';
import { nothingPending } from './invocation.js';
import { nothingToResume } from './session-lifecycle.js';

/** The default resume answer (see `resume`), replaced by one answer per pending pause. */
export const CONTINUE: unknown = Symbol('continue');

/** What a resume answers, and where: `decisions` for the graph at `checkpointId` (default: its latest). */
export interface ResumeRequest {
  readonly graph: AgentGraph;
  readonly sessionId: string;
  readonly threadId: string;
  readonly decisions: unknown;
  readonly checkpointId: string | undefined;
}

/**
 * The graph's resume input: the decisions, or — for a plain `resume()` — `{ continue: true }` for every
 * pending pause, or a continue from the last checkpoint when a turn stopped without one.
 *
 * @throws AdkError `NOT_RESUMABLE` when the checkpoint holds no pause and no unfinished step.
 */
export async function resumeValue(request: ResumeRequest): Promise<unknown> {
  const { graph, threadId, decisions, checkpointId } = request;
  const state = await graph.getState(threadId, checkpointId === undefined ? {} : { checkpointId });
  const pending = state?.interrupts ?? [];
  if (pending.length === 0 && (state?.next.length ?? 0) === 0)
    throw nothingToResume(request.sessionId, 'its checkpoint holds no pause and no unfinished step');
  if (decisions !== CONTINUE) return decisions;
  if (pending.length === 0) return nothingPending;
  if (pending.length === 1) return { continue: true };
  return Object.fromEntries(pending.map((p) => [p.id, { continue: true }]));
}

/** What a turn runs: a new message, or the answers of a resume. */
export type TurnInput = { readonly message: Message | string } | { readonly resume: unknown };

/**
 * What a turn runs, decided before anything is stored: a resume's input (see {@link resumeValue}); for a
 * tool message sent in (a long-running call's progress or result, as Google ADK's clients send function
 * responses), the resume of the pause its call waits in when it waits in one (the other pending calls
 * keep waiting), else a new turn the model answers — its call must be in the conversation.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a tool message whose call the conversation does not hold;
 *   `NOT_RESUMABLE` for a resume with nothing pending.
 */
export async function turnInputOf(
  request: Omit<ResumeRequest, 'decisions'> & { readonly input: TurnInput },
): Promise<TurnInput> {
  const { graph, threadId, input } = request;
  if ('resume' in input) return { resume: await resumeValue({ ...request, decisions: input.resume }) };
  const message = input.message;
  if (typeof message === 'string' || message.role !== 'tool') return input;
  const state = await graph.getState(threadId);
  const waiting = state?.interrupts.find((interrupt) => {
    const value = interrupt.value as Partial<ToolPendingRequest> | null;
    return value?.type === 'tool-pending' && value.toolCallId === message.toolCallId;
  });
  if (waiting) return { resume: { [waiting.id]: message } };
  callAnswered((state?.values.messages ?? []) as readonly Message[], message);
  return input;
}
