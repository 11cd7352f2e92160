import {
  type AssistantMessage,
  assistantMessage,
  type ChatModel,
  type Message,
  messageText,
  systemMessage,
  type ToolMessage,
  userMessage,
} from '@weft/adk';
import { type AgentState, callModelInNode, reportAgentEvent } from '@weft/adk/agent-graph';
import type { NodeContext } from '@weft/compose';
import { latestUserText } from '../plan-execute/plan-state.js';

/**
 * Options of {@link mergeResultsNode}.
 *
 * @example
 * ```ts
 * const options: MergeResultsOptions = { author: 'host', specialists: new Set(['weather']), prompt: SUMMARIZER_PROMPT };
 * ```
 */
export interface MergeResultsOptions {
  /** Who posts the merged answer (the host). */
  readonly author: string;
  /** The names of the specialist tools. */
  readonly specialists: ReadonlySet<string>;
  /** Writes one answer from several results; without it they are concatenated under headers. */
  readonly summarizer?: ChatModel;
  /** The summarizer's instruction. */
  readonly prompt: string;
}

/**
 * The specialist results of the host's last tool step (the tool messages after its last model reply),
 * failed ones included.
 *
 * @example
 * ```ts
 * const messages = [
 *   userMessage('Weather and news?'),
 *   toolMessage('Sunny.', { toolCallId: 'c1', name: 'weather' }),
 *   toolMessage('No news.', { toolCallId: 'c2', name: 'news' }),
 * ];
 * const results = specialistResults(messages, new Set(['weather', 'news'])); // the two tool messages
 * ```
 */
export function specialistResults(
  messages: readonly Message[],
  specialists: ReadonlySet<string>,
): ToolMessage[] {
  const results: ToolMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role !== 'tool') break;
    if (specialists.has(message.name)) results.unshift(message);
  }
  return results;
}

/**
 * Several specialist results as one text: a `## name` header over each (`(failed)` after a failure).
 *
 * @example
 * ```ts
 * const results = [
 *   toolMessage('Sunny.', { toolCallId: 'c1', name: 'weather' }),
 *   toolMessage('No news.', { toolCallId: 'c2', name: 'news' }),
 * ];
 * concatenateResults(results); // '## weather\nSunny.\n\n## news\nNo news.'
 * ```
 */
export function concatenateResults(results: readonly ToolMessage[]): string {
  return results
    .map((r) => `## ${r.name}${r.status === 'error' ? ' (failed)' : ''}\n${messageText(r).trim()}`)
    .join('\n\n');
}

/**
 * The host's `merge` node: when the host handed the request to several specialists, their results
 * become one answer — written by the summarizer model (streamed as partial events when the run
 * streams, and reported as the host's model call: usage totals, costs and traces count it) or
 * concatenated under headers — posted as the host's reply and set as the output. With one
 * result (it is the output already) or none, it does nothing.
 *
 * @example
 * ```ts
 * const specialists = new Set(['weather', 'news']);
 * const merge = mergeResultsNode({ author: 'host', specialists, prompt: SUMMARIZER_PROMPT });
 * // HostAgent adds it after the host agent's node: .addNode('merge', merge).addEdge('host', 'merge')
 * ```
 */
export function mergeResultsNode(options: MergeResultsOptions) {
  return async (state: AgentState, ctx: NodeContext): Promise<Partial<AgentState> | undefined> => {
    if (state.finish !== 'returnDirectly') return undefined;
    const results = specialistResults(state.messages, options.specialists);
    if (results.length < 2) return undefined;
    const merged = concatenateResults(results);
    let reply: AssistantMessage = assistantMessage(merged);
    if (options.summarizer) {
      const messages = [
        systemMessage(options.prompt),
        userMessage(`Request: ${latestUserText(state.messages)}\n\nAnswers:\n\n${merged}`),
      ];
      // A call of the run like the host's own: streamed as the host's partial events when someone reads
      // them, and reported (usage totals, costs, traces).
      reply = await callModelInNode(ctx, { agent: options.author, model: options.summarizer, messages });
    }
    const message: AssistantMessage = {
      ...reply,
      id: `merge-${ctx.runId}-${ctx.step}`,
      author: options.author,
    };
    await reportAgentEvent(ctx, {
      author: options.author,
      message,
      actions: {},
      ...(message.usage ? { usage: message.usage } : {}),
    });
    return { messages: [message], output: messageText(message) };
  };
}
