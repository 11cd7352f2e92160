import type { AgentEvent } from '../src/index.js';

export { drain } from '../src/testing/index.js';

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
