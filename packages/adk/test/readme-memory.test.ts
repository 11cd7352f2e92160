// Keeps the README's long-term memory section honest: the same code, run over two sessions.
import {
  type AgentEvent,
  ChatModelAgent,
  loadMemoryTool,
  MemorySessionService,
  memorize,
  messageText,
  modelExtractor,
  Runner,
  recall,
  StoreMemoryService,
} from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { HashingEmbeddings, MemoryStore } from '@weft/compose';
import { expect, it } from 'vitest';

it('runs the README memory example across two sessions', async () => {
  const cheapModel = new ScriptedChatModel(() => '{"memories": ["The user takes oat milk."]}');
  const model = new ScriptedChatModel((messages) =>
    messageText(messages[0] as never).includes('oat milk') ? 'Oat flat white?' : 'Noted.',
  );
  const sessionService = new MemorySessionService();
  const store = new MemoryStore({ index: { embeddings: new HashingEmbeddings(), fields: ['text'] } });
  const memory = new StoreMemoryService({ store, extractor: modelExtractor({ model: cheapModel }) });
  await memory.recover(); // on start: extractions a crashed process left pending
  const agent = new ChatModelAgent({
    name: 'barista',
    model,
    instruction: 'You are a friendly barista.',
    tools: [loadMemoryTool(memory)],
    middleware: [recall({ memory, budgetTokens: 400 }), memorize({ memory })],
  });
  const runner = new Runner({ agent, sessionService, appName: 'cafe' });

  const replies = async (sessionId: string, message: string) => {
    const seen: AgentEvent[] = [];
    for await (const event of runner.run({ userId: 'ada', sessionId, message }))
      if (!event.partial) seen.push(event);
    return seen.filter((e) => e.message?.role === 'assistant').map((e) => messageText(e.message as never));
  };
  expect(await replies('s1', 'Oat milk in everything, please.')).toEqual(['Noted.']);
  await memory.idle();
  expect(await replies('s2', 'The usual coffee?')).toEqual(['Oat flat white?']);
});
