import { type Agent, ChatModelAgent, type Message, messageText, tool } from '@weft/adk';
import { ScriptedChatModel, type ScriptedResponse } from '@weft/adk/testing';
import { createSupervisor } from '@weft/prebuilt';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Looks up facts about a topic',
  parameters: z.object({ topic: z.string() }),
  execute: ({ topic }) =>
    `${topic}: graphs run in supersteps; every step is checkpointed and can be resumed.`,
});

/** The user's latest request: the last user message that is not another agent's report. */
function request(messages: readonly Message[]): { text: string; after: string[] } {
  const texts = messages.filter((m) => m.role === 'user').map(messageText);
  let at = texts.length - 1;
  while (at > 0 && texts[at]?.startsWith('For context:')) at--;
  return { text: texts[at] ?? '', after: texts.slice(at + 1) };
}

/** The supervisor: research first, then writing, then the answer. */
function supervise(messages: readonly Message[], _o: unknown, call: number): ScriptedResponse {
  const { text, after } = request(messages);
  const reported = (name: string) => after.find((t) => t.startsWith(`For context: [${name}] said:`));
  const handOff = (agent_name: string, note: string) => ({
    text: note,
    toolCalls: [{ id: `sup-${call}`, name: 'transfer_to_agent', arguments: { agent_name } }],
  });
  if (!reported('researcher')) return handOff('researcher', `Research this: ${text}`);
  if (!reported('writer')) return handOff('writer', 'Write a short answer from the research.');
  return `Done. ${reported('writer')?.replace(/^For context: \[writer\] said: /, '') ?? ''}`;
}

/** The researcher: looks the topic up, then reports. */
function research(messages: readonly Message[], _o: unknown, call: number): ScriptedResponse {
  const last = messages.at(-1);
  if (last?.role === 'tool') return `I found: ${messageText(last)}`;
  const topic =
    request(messages)
      .text.match(/[A-Za-z]{4,}/g)
      ?.at(-1) ?? 'weft';
  return { toolCalls: [{ id: `res-${call}`, name: 'lookup', arguments: { topic } }] };
}

/**
 * The demo's supervisor team on scripted models: the supervisor hands the request to a researcher (who
 * uses a lookup tool), then to a writer; each hands back; the supervisor answers.
 *
 * @example
 * ```ts
 * const team = buildSupervisorTeam();
 * console.log(team.compile().toMermaid());
 * ```
 */
export function buildSupervisorTeam(options: { readonly chunkDelayMs?: number } = {}): Agent {
  const delay = { chunkDelayMs: options.chunkDelayMs ?? 40 };
  const researcher = new ChatModelAgent({
    name: 'researcher',
    description: 'Finds facts with a lookup tool',
    model: new ScriptedChatModel(research, { name: 'scripted-researcher', ...delay }),
    tools: [lookup],
  });
  const writer = new ChatModelAgent({
    name: 'writer',
    description: 'Writes short answers from research',
    model: new ScriptedChatModel(
      (messages) =>
        `In short: ${messageText(messages.at(-2) ?? messages.at(-1)!).replace(/^For context: \[\w+\] said: /, '')}`,
      { name: 'scripted-writer', ...delay },
    ),
  });
  return createSupervisor({
    supervisor: { model: new ScriptedChatModel(supervise, { name: 'scripted-supervisor', ...delay }) },
    agents: [researcher, writer],
  });
}
