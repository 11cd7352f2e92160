import type { AgentEvent, Session, SessionService } from '@weft/adk';
import type { AnyCompiledGraph } from './define-app.ts';
import type { SessionBranches } from './session-branches.ts';

/** What {@link branchSession} needs. */
export interface BranchArgs {
  readonly sessions: SessionService;
  readonly branches: SessionBranches;
  /** The agent's graph (for the thread's checkpoint tree). */
  readonly graph: AnyCompiledGraph;
  readonly appName: string;
  readonly userId: string;
  readonly threadId: string;
  /** The checkpoint the run goes on from (a fork's original checkpoint, before edits). */
  readonly at: string;
}

/**
 * Makes a new session branch of a playground thread for a run from an older checkpoint (ADR 018): it
 * holds the events — copied with new ids — whose recorded checkpoint is a strict ancestor of `at` (or
 * that came before the thread's first checkpoint), i.e. exactly the events whose effects `at` holds,
 * taken from the thread's session that has most of them. Session state is those events' deltas replayed
 * by the session service; `user:`/`app:` keys are shared by every session, so they are not replayed.
 * The parent session is never changed. Returns the new session id, or the current one when the thread
 * has no session yet (nothing to copy).
 *
 * @example
 * ```ts
 * const sessionId = await branchSession({ sessions, branches, graph, appName, userId, threadId, at: checkpointId });
 * ```
 */
export async function branchSession(args: BranchArgs): Promise<string> {
  const { sessions, branches, appName, userId, threadId } = args;
  const ancestors = await strictAncestors(args.graph, threadId, args.at);
  const before = (event: AgentEvent) => event.checkpointId === undefined || ancestors.has(event.checkpointId);
  const listed = branches.list(threadId).map((b) => b.sessionId);
  let source: { session: Session; kept: AgentEvent[] } | undefined;
  for (const sessionId of (listed.length > 0 ? listed : [threadId]).reverse()) {
    const session = await sessions.get({ appName, userId, sessionId });
    if (!session) continue;
    const kept = session.events.filter(before);
    if (!source || kept.length > source.kept.length) source = { session, kept };
  }
  if (!source) return branches.current(threadId);
  const branch = branches.add({ threadId, parent: source.session.sessionId, forkedFrom: args.at });
  const key = { appName, userId, sessionId: branch.sessionId };
  await sessions.create(key);
  for (const event of source.kept) await sessions.appendEvent(key, copyOf(event, branch.sessionId));
  return branch.sessionId;
}

/** The checkpoints before `at` on its lineage (its parent, the parent's parent, …). */
async function strictAncestors(graph: AnyCompiledGraph, threadId: string, at: string): Promise<Set<string>> {
  const history = await graph.getStateHistory(threadId);
  const parentOf = new Map(history.map((s) => [s.checkpointId, s.parentId]));
  const found = new Set<string>();
  for (let id = parentOf.get(at) ?? null; id !== null && !found.has(id); id = parentOf.get(id) ?? null)
    found.add(id);
  return found;
}

/** An event as the branch stores it: a new id (still time-sortable), without shared-scope writes. */
function copyOf(event: AgentEvent, sessionId: string): AgentEvent {
  const delta = event.actions.stateDelta;
  const own = delta
    ? Object.fromEntries(
        Object.entries(delta).filter(([key]) => !key.startsWith('user:') && !key.startsWith('app:')),
      )
    : undefined;
  return {
    ...event,
    id: `${event.id}~${sessionId}`,
    actions: { ...event.actions, ...(own === undefined ? {} : { stateDelta: own }) },
  };
}
