import { type Agent, ChatModelAgent, type Message, messageText, tool } from '@weft/adk';
import { ScriptedChatModel, type ScriptedResponse } from '@weft/adk/testing';
import { createHostAgent } from '@weft/prebuilt';
import { z } from 'zod';

/** A specialist on a scripted model: calls its one tool, then answers with the result. */
function specialist(options: {
  readonly name: string;
  readonly description: string;
  readonly answer: string;
  readonly chunkDelayMs: number;
}): Agent {
  const lookup = tool({
    name: `${options.name}_lookup`,
    description: options.description,
    parameters: z.object({ query: z.string() }),
    execute: () => options.answer,
  });
  const script = (messages: readonly Message[], _o: unknown, call: number): ScriptedResponse => {
    const last = messages.at(-1);
    if (last?.role === 'tool') return messageText(last);
    const query = last ? messageText(last) : '';
    return { toolCalls: [{ id: `${options.name}-${call}`, name: lookup.name, arguments: { query } }] };
  };
  return new ChatModelAgent({
    name: options.name,
    description: options.description,
    model: new ScriptedChatModel(script, {
      name: `scripted-${options.name}`,
      chunkDelayMs: options.chunkDelayMs,
    }),
    tools: [lookup],
  });
}

/** The host: one call per matching specialist (several run in parallel), or an answer of its own. */
function route(messages: readonly Message[], _o: unknown, call: number): ScriptedResponse {
  const text = messageText(messages.filter((m) => m.role === 'user').at(-1) ?? messages[0]!);
  const calls = [
    ...(/weather|rain|sun/i.test(text) ? [{ name: 'weather', request: text }] : []),
    ...(/news|headline/i.test(text) ? [{ name: 'news', request: text }] : []),
  ].map((c, i) => ({ id: `host-${call}-${i}`, name: c.name, arguments: { request: c.request } }));
  if (calls.length > 0) return { toolCalls: calls };
  return 'I route to specialists: ask about the weather, the news, or both at once.';
}

/**
 * The demo's host agent on scripted models: the host sends weather questions to `weather`, news
 * questions to `news`, both at once when asked both, and a summarizer merges two answers.
 *
 * @example
 * ```ts
 * const agent = buildHostAgent();
 * ```
 */
export function buildHostAgent(options: { readonly chunkDelayMs?: number } = {}): Agent {
  const chunkDelayMs = options.chunkDelayMs ?? 40;
  return createHostAgent({
    host: { model: new ScriptedChatModel(route, { name: 'scripted-host', chunkDelayMs }) },
    specialists: [
      specialist({
        name: 'weather',
        description: 'Weather forecasts',
        answer: 'Sunny, 21 °C.',
        chunkDelayMs,
      }),
      specialist({
        name: 'news',
        description: 'News headlines',
        answer: 'Weft ships templates.',
        chunkDelayMs,
      }),
    ],
    summarizer: new ScriptedChatModel(
      (messages) =>
        `Here is everything: ${
          messageText(messages.at(-1)!)
            .split('Answers:\n\n')[1]
            ?.replace(/## \w+\n/g, '')
            .replace(/\n\n/g, ' ') ?? ''
        }`,
      { name: 'scripted-summarizer', chunkDelayMs },
    ),
  });
}
