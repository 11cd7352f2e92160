/**
 * A supervisor team — a researcher with a fact-lookup tool and a writer — run through a Runner:
 * offline on scripted models, or on a real model when `OPENAI_API_KEY` is set (optionally
 * `OPENAI_BASE_URL`, `OPENAI_MODEL`). Run it with `pnpm --filter @weft/examples supervisor`.
 */
import {
  type AgentEvent,
  type ChatModel,
  ChatModelAgent,
  MemorySessionService,
  messageText,
  Runner,
  tool,
} from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { ScriptedChatModel } from '@weft/adk/testing';
import { createSupervisor } from '@weft/prebuilt';
import { z } from 'zod';

const facts: Record<string, string> = {
  bees: 'Honey bees dance to tell each other where food is: the angle points to it, the length says how far.',
};

/** Looks a topic up in a small fact table. */
export const lookup = tool({
  name: 'lookup',
  description: 'Looks up facts about a topic',
  parameters: z.object({ topic: z.string().describe('One word, e.g. bees') }),
  execute: ({ topic }) => facts[topic.toLowerCase()] ?? `No facts about ${topic}.`,
});

/** The models of the team's three agents. */
export interface TeamModels {
  readonly supervisor: ChatModel;
  readonly researcher: ChatModel;
  readonly writer: ChatModel;
}

const transfer = (id: string, agent_name: string, text: string) => ({
  text,
  toolCalls: [{ id, name: 'transfer_to_agent', arguments: { agent_name } }],
});

/** What real models would do for the demo request (tool-call ids are unique across the models). */
export function scriptedModels(): TeamModels {
  return {
    supervisor: new ScriptedChatModel([
      transfer('sup-1', 'researcher', 'Find out how bees communicate.'),
      transfer('sup-2', 'writer', 'Write two sentences from the research.'),
      'Here is your note: Bees talk by dancing. The dance points to food and tells how far it is.',
    ]),
    researcher: new ScriptedChatModel([
      { toolCalls: [{ id: 'res-1', name: 'lookup', arguments: { topic: 'bees' } }] },
      'Bees dance: the angle points to food, the length says how far.',
    ]),
    writer: new ScriptedChatModel([
      'Bees talk by dancing. The dance points to food and tells how far it is.',
    ]),
  };
}

/** `author@branch: what happened` for the events worth printing. */
export function describeEvent(event: AgentEvent): string | undefined {
  const who = `${event.author}${event.branch ? `@${event.branch}` : ''}`;
  const message = event.message;
  if (message?.role === 'assistant' && message.toolCalls?.length)
    return `${who} calls ${message.toolCalls.map((c) => `${c.name}(${c.arguments})`).join(', ')}`;
  if (message?.role === 'assistant') return `${who}: ${messageText(message)}`;
  if (event.actions.transferTo) return `${who} hands over to ${event.actions.transferTo}`;
  return undefined;
}

/** Runs the demo request through the team; returns the answer and the hand-offs in order. */
export async function main(
  print: (line: string) => void = console.log,
  models: TeamModels = defaultModels(),
) {
  const researcher = new ChatModelAgent({
    name: 'researcher',
    description: 'Finds facts with the lookup tool',
    instruction: 'You research facts. Use the lookup tool, then report what you found in one sentence.',
    model: models.researcher,
    tools: [lookup],
  });
  const writer = new ChatModelAgent({
    name: 'writer',
    description: 'Writes short texts from research',
    instruction: 'You write two clear sentences from the research in the conversation.',
    model: models.writer,
  });
  const team = createSupervisor({ supervisor: { model: models.supervisor }, agents: [researcher, writer] });
  const runner = new Runner({ agent: team, sessionService: new MemorySessionService(), streaming: false });
  let answer = '';
  const handOffs: string[] = [];
  for await (const event of runner.run({
    userId: 'demo',
    sessionId: 'bees',
    message: 'Write a note on how bees talk',
  })) {
    const line = describeEvent(event);
    if (line) print(line);
    if (event.actions.transferTo) handOffs.push(`${event.author}→${event.actions.transferTo}`);
    if (
      event.author === 'supervisor' &&
      event.message?.role === 'assistant' &&
      !event.message.toolCalls?.length
    )
      answer = messageText(event.message);
  }
  return { answer, handOffs };
}

function defaultModels(): TeamModels {
  if (!process.env.OPENAI_API_KEY) return scriptedModels();
  const model = new OpenAIChatModel({});
  return { supervisor: model, researcher: model, writer: model };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
