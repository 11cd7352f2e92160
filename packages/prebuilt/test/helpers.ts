import { type AgentEvent, type AnyTool, type Message, messageText } from '@weft/adk';
import { executeToolCalls, MemorySessionState } from '@weft/adk/agent-graph';

export { drain } from '@weft/adk/testing';

/** Runs one call of `tool` through adk's tool executor; returns the text the model would read and the status. */
export async function call(
  tool: AnyTool,
  args: Record<string, unknown>,
  state = new MemorySessionState(),
): Promise<{ text: string; status: string | undefined }> {
  const [result] = await executeToolCalls(
    [{ id: 'call_1', name: tool.name, arguments: JSON.stringify(args) }],
    [tool],
    {
      state,
    },
  );
  if (!result) throw new Error('no tool result');
  return { text: messageText(result), status: result.status };
}

/** A compact trace of events: `author:kind`, where kind is the message role, a tool call list, `transfer(to)`, `delta`, `pause` or `done`. */
export function trace(events: readonly AgentEvent[]): string[] {
  return events
    .filter((event) => !event.partial)
    .map((event) => {
      const message = event.message;
      let kind: string;
      if (message?.role === 'assistant' && message.toolCalls?.length)
        kind = `calls(${message.toolCalls.map((c) => c.name).join(',')})`;
      else if (message?.role === 'tool')
        kind = `result(${message.name}${message.status === 'error' ? ':error' : ''})`;
      else if (message) kind = message.role;
      else if (event.interrupts) kind = 'pause';
      else if (event.turnComplete) kind = 'done';
      else if (event.custom) kind = event.custom.type;
      else if (event.actions.transferTo) kind = `transfer(${event.actions.transferTo})`;
      else kind = 'delta';
      return `${event.author}:${kind}`;
    });
}

/** {@link trace} with each event's branch: `author@branch:kind` (no `@` for events without a branch). */
export function branchTrace(events: readonly AgentEvent[]): string[] {
  const kinds = trace(events);
  return events
    .filter((event) => !event.partial)
    .map((event, i) => {
      const [author, ...kind] = (kinds[i] as string).split(':');
      return `${author}${event.branch ? `@${event.branch}` : ''}:${kind.join(':')}`;
    });
}

/** The texts of the messages a scripted model received in call `index`, without the instruction. */
export function sent(model: { calls: readonly { messages: readonly Message[] }[] }, index: number): string[] {
  return (model.calls[index]?.messages ?? []).filter((m) => m.role !== 'system').map(messageText);
}
