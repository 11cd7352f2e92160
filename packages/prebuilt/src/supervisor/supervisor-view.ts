import {
  type AgentMiddleware,
  type AssistantMessage,
  assistantMessage,
  EXIT_LOOP_TOOL,
  type Message,
  messageText,
} from '@weft/adk';
import { conversationFor, TRANSFER_TOOL } from '@weft/adk/agent-graph';

/** Bookkeeping between agents, never shown as work. */
const handOffTools = new Set([TRANSFER_TOOL, EXIT_LOOP_TOOL]);

/**
 * What a supervisor sees of its workers' work: `lastMessage` — only each worker's final reply (the last
 * message it added before handing back); `full` — everything each worker added, its tool calls and tool
 * results included (as text, since they are not the supervisor's own calls).
 *
 * @example
 * ```ts
 * const mode: SupervisorOutputMode = 'full';
 * ```
 */
export type SupervisorOutputMode = 'full' | 'lastMessage';

/**
 * The middleware that shows a supervisor its workers' output as `mode` says. It rebuilds the
 * conversation sent to the model from the team's history (keeping the instruction), so register it
 * first: hooks after it see its result.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const supervisor = new ChatModelAgent({ name: 'supervisor', model, middleware: [supervisorView('lastMessage')] });
 * ```
 */
export function supervisorView(mode: SupervisorOutputMode): AgentMiddleware {
  return {
    name: 'supervisor-view',
    beforeModel: (request, ctx) => {
      const instruction = leadingSystem(request.messages);
      const history = workerOutput(ctx.agentName, ctx.state.messages, mode);
      return { ...request, messages: [...instruction, ...conversationFor(ctx.agentName, history)] };
    },
  };
}

/**
 * The team history with each worker's turn reduced to what `mode` shows the supervisor: a worker's turn
 * is a run of consecutive messages by agents other than the supervisor (and not the user's). Its tool
 * results become the worker's replies, so the supervisor's view (`conversationFor`) shows them as
 * `[worker] said:` context.
 *
 * @example
 * ```ts
 * const messages: Message[] = [
 *   userMessage('Find the population of Lyon.'),
 *   { ...assistantMessage('Searching…'), author: 'researcher' },
 *   { ...assistantMessage('Lyon has 520,000 inhabitants.'), author: 'researcher' },
 * ];
 * const history = workerOutput('supervisor', messages, 'lastMessage'); // the user's message and the worker's last reply
 * ```
 */
export function workerOutput(
  supervisor: string,
  messages: readonly Message[],
  mode: SupervisorOutputMode,
): Message[] {
  const isWorker = (message: Message) => message.author !== undefined && message.author !== supervisor;
  const out: Message[] = [];
  messages.forEach((message, index) => {
    if (!isWorker(message) || isHandOff(message)) {
      out.push(message);
      return;
    }
    const next = messages[index + 1];
    const lastOfTurn = next === undefined || !isWorker(next);
    if (mode === 'full') out.push(asReport(message, true));
    else if (lastOfTurn) out.push(asReport(message, false));
  });
  return out;
}

/** A worker's message as a plain reply of the worker: tool calls and results written out as text. */
function asReport(message: Message, withCalls: boolean): Message {
  const base = { ...(message.id === undefined ? {} : { id: message.id }) };
  const text = messageText(message);
  let content = text;
  if (message.role === 'tool') content = withCalls ? `[${message.name} returned] ${text}` : text;
  else if (message.role === 'assistant' && withCalls && message.toolCalls?.length)
    content = [
      text,
      ...message.toolCalls
        .filter((c) => !handOffTools.has(c.name))
        .map((c) => `[called ${c.name} ${c.arguments}]`),
    ]
      .filter((line) => line !== '')
      .join('\n');
  else if (message.role !== 'assistant') return message;
  const reply: AssistantMessage = assistantMessage(content, base);
  return message.author === undefined ? reply : { ...reply, author: message.author };
}

function isHandOff(message: Message): boolean {
  return message.role === 'tool' && handOffTools.has(message.name);
}

function leadingSystem(messages: readonly Message[]): Message[] {
  const end = messages.findIndex((m) => m.role !== 'system');
  return messages.slice(0, end === -1 ? messages.length : end);
}
