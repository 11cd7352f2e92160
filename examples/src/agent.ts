/**
 * A tool-using agent with sessions: runs offline on the scripted model, or on a real model when
 * `OPENAI_API_KEY` is set (optionally `OPENAI_BASE_URL`, `OPENAI_MODEL`, e.g. Ollama or vLLM).
 * Run it with `pnpm --filter @weft/examples agent`.
 */
import { type ChatModel, ChatModelAgent, MemorySessionService, Runner, tool } from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { ScriptedChatModel } from '@weft/adk/testing';
import { z } from 'zod';

const forecasts: Record<string, { celsius: number; sky: string }> = {
  oslo: { celsius: 4, sky: 'snow' },
  rome: { celsius: 18, sky: 'sun' },
};

export const weather = tool({
  name: 'weather',
  description: 'The current weather of a city',
  parameters: z.object({ city: z.string().describe('City name, e.g. Oslo') }),
  execute: ({ city }) => forecasts[city.toLowerCase()] ?? { celsius: 20, sky: 'clear' },
});

export const calculator = tool({
  name: 'calculator',
  description: 'Computes a - b',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a - b,
});

/** The scripted model replays what a real model would do for the demo question. */
export function scriptedModel(): ChatModel {
  return new ScriptedChatModel(
    [
      {
        toolCalls: [
          { name: 'weather', arguments: { city: 'Oslo' } },
          { name: 'weather', arguments: { city: 'Rome' } },
        ],
      },
      { toolCalls: [{ name: 'calculator', arguments: { a: 18, b: 4 } }] },
      'Rome (18 °C, sunny) is 14 degrees warmer than Oslo (4 °C, snow).',
    ],
    { chunkSize: 8 },
  );
}

/** Runs one question through the agent and prints its events. */
export async function main(print: (line: string) => void = console.log, model: ChatModel = defaultModel()) {
  const agent = new ChatModelAgent({
    name: 'forecaster',
    instruction: 'You compare weather between cities. Use the tools; answer in one sentence.',
    model,
    tools: [weather, calculator],
    outputKey: 'answer',
  });
  const sessions = new MemorySessionService();
  const runner = new Runner({ agent, sessionService: sessions });
  for await (const event of runner.run({
    userId: 'demo',
    sessionId: 'weather',
    message: 'How much warmer is Rome than Oslo?',
  })) {
    if (event.partial) continue;
    if (event.message?.role === 'assistant' && event.message.toolCalls?.length) {
      print(
        `${event.author} calls ${event.message.toolCalls.map((c) => `${c.name}(${c.arguments})`).join(', ')}`,
      );
    } else if (event.message)
      print(`${event.author} (${event.message.role}): ${JSON.stringify(event.message.content)}`);
  }
  const session = await sessions.get({ appName: 'forecaster', userId: 'demo', sessionId: 'weather' });
  print(`session answer: ${String(session?.state.answer)}`);
  return session?.state.answer;
}

function defaultModel(): ChatModel {
  return process.env.OPENAI_API_KEY ? new OpenAIChatModel({}) : scriptedModel();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
