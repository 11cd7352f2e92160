import type { AgentGraph } from '../agent/agent-graph.js';
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
