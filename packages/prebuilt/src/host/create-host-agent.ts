import { AdkError, type Agent, AgentTool, type ChatModel } from '@weft/adk';
import { type AgentRoleOptions, roleAgent } from '../multi/role-options.js';
import { HostAgent } from './host-agent.js';

/**
 * The host's default prompt; the specialists are its tools, described by their descriptions.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const weather = createReactAgent({ name: 'weather', description: 'Answers weather questions', model, tools: [] });
 * const news = createReactAgent({ name: 'news', description: 'Summarizes the news', model, tools: [] });
 * const specialists = [weather, news];
 * createHostAgent({ host: { model, instruction: `${HOST_PROMPT}\nAnswer in French.` }, specialists });
 * ```
 */
export const HOST_PROMPT =
  'You route requests to specialists, your tools. Call the specialist that fits the request, with the part of the request it should handle in `request`. When the request has several parts for different specialists, call each of them in the same reply: they run in parallel. Answer yourself only when no specialist fits.';

/**
 * The summarizer's default prompt.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const weather = createReactAgent({ name: 'weather', description: 'Answers weather questions', model, tools: [] });
 * const news = createReactAgent({ name: 'news', description: 'Summarizes the news', model, tools: [] });
 * const specialists = [weather, news];
 * createHostAgent({ host: { model }, specialists, summarizer: model, summarizerPrompt: `${SUMMARIZER_PROMPT} Use bullets.` });
 * ```
 */
export const SUMMARIZER_PROMPT =
  'Several specialists answered parts of the user’s request. Merge their answers into one reply for the user: keep every fact, drop repetition, and say plainly when a specialist failed.';

/**
 * Options of {@link createHostAgent}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const weather = createReactAgent({ name: 'weather', description: 'Answers weather questions', model, tools: [] });
 * const news = createReactAgent({ name: 'news', description: 'Summarizes the news', model, tools: [] });
 * const options: HostAgentTemplateOptions = { host: { model }, specialists: [weather, news], summarizer: model };
 * ```
 */
export interface HostAgentTemplateOptions {
  /** The routing agent (default name `host`, default prompt {@link HOST_PROMPT}). */
  readonly host: AgentRoleOptions;
  /** The specialists, each offered to the host as a tool named after it and described by its description. */
  readonly specialists: readonly Agent[];
  /** Merges several results into one answer; without it they are concatenated under `## name` headers. */
  readonly summarizer?: ChatModel;
  /** Replaces {@link SUMMARIZER_PROMPT}. */
  readonly summarizerPrompt?: string;
}

/**
 * A host agent: the host picks one or several specialists by tool calls — each specialist is an
 * `AgentTool` (a fresh conversation holding the host's `request`; its events reach the stream on the
 * branch `host.<specialist>`, a pause inside it is resumable) and the calls of one reply run in
 * parallel. The specialists' results are return-directly: one result is the answer as it is; several
 * are merged by the `summarizer` model, or concatenated under headers. A failed specialist is a tool
 * error: alone, the host reads it and answers; among several, it is reported in the merged answer.
 *
 * @throws AdkError `INVALID_ARGUMENT` without specialists, or for duplicate names.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const weather = createReactAgent({ name: 'weather', description: 'Answers weather questions', model, tools: [] });
 * const news = createReactAgent({ name: 'news', description: 'Summarizes the news', model, tools: [] });
 * const agent = createHostAgent({ host: { model }, specialists: [weather, news], summarizer: model });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * ```
 */
export function createHostAgent(options: HostAgentTemplateOptions): HostAgent {
  if (options.specialists.length === 0)
    throw new AdkError('INVALID_ARGUMENT', 'createHostAgent: give at least one specialist');
  const tools = options.specialists.map((specialist) => new AgentTool(specialist));
  const host = roleAgent(options.host, {
    name: 'host',
    instruction: HOST_PROMPT,
    tools,
    options: { returnDirectly: tools.map((t) => t.name) },
  });
  return new HostAgent({
    host,
    specialists: options.specialists,
    summarizerPrompt: options.summarizerPrompt ?? SUMMARIZER_PROMPT,
    ...(options.summarizer ? { summarizer: options.summarizer } : {}),
  });
}
