import type { AgentEvent } from '../src/index.js';

/** Reads a run's events to the end. */
export async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** `author@branch:kind` of each committed event, for compact assertions. */
export function trail(events: readonly AgentEvent[]): string[] {
  return events.map((e) => {
    const kind = e.message
      ? e.message.role
      : e.turnComplete
        ? 'done'
        : Object.keys(e.actions)
            .filter((k) => k !== 'stateDelta' || Object.keys(e.actions.stateDelta ?? {}).length > 0)
            .join('+') || 'event';
    return `${e.author}${e.branch ? `@${e.branch}` : ''}:${kind}`;
  });
}
