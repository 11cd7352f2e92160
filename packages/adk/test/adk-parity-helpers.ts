import type { AgentEvent, Message } from '../src/index.js';
import { messageText } from '../src/index.js';

/**
 * Google ADK's `testing_utils.simplify_contents`: each message as `[role, text | calls | result]` — a
 * reply's tool calls as `{ call, args }`, a tool result as `{ result: tool, content }` (a JSON part's
 * value, else the text or the parts).
 */
export function contents(messages: readonly Message[]): [string, unknown][] {
  return messages.map((m) => {
    if (m.role === 'assistant' && m.toolCalls?.length)
      return ['assistant', m.toolCalls.map((c) => ({ call: c.name, args: JSON.parse(c.arguments) }))];
    if (m.role === 'tool') return ['tool', { result: m.name, content: contentOf(m.content) }];
    return [m.role, messageText(m)];
  });
}

/** Google ADK's `testing_utils.simplify_events`: `[author, content]` of the agents' committed messages. */
export function simplify(events: readonly AgentEvent[]): [string, unknown][] {
  return events
    .filter((e) => !e.partial && e.message && e.author !== 'user')
    .map((e) => [e.author, contents([e.message as Message])[0]?.[1]]);
}

function contentOf(content: Message['content']): unknown {
  if (typeof content === 'string') return content;
  const json = content.find((p) => p.type === 'json');
  return json && 'value' in json ? json.value : content;
}
