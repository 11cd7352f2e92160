import type { AgentEvent, Message } from '../src/index.js';

export { drain } from '../src/testing/index.js';

/** Throws unless every tool call in `messages` is answered right after it and every result has its call. */
export function assertToolPairs(messages: readonly Message[]): void {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      if (open.size > 0)
        throw new Error(`tool calls ${[...open].join(', ')} have no result before the next reply`);
      for (const call of message.toolCalls ?? []) open.add(call.id);
    } else if (message.role === 'tool') {
      if (!open.delete(message.toolCallId))
        throw new Error(`tool result ${message.toolCallId} has no call before it`);
    } else if (open.size > 0)
      throw new Error(`a ${message.role} message splits calls ${[...open].join(', ')} from their results`);
  }
  if (open.size > 0) throw new Error(`tool calls ${[...open].join(', ')} are never answered`);
}

/** The `custom` payloads of events, in order. */
export function customEvents(events: readonly AgentEvent[]): { type: string; data: unknown }[] {
  return events.flatMap((event) =>
    event.custom ? [{ type: event.custom.type, data: event.custom.data }] : [],
  );
}
