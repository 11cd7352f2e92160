import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  ChatModelAgent,
  type MemoryExtractor,
  type Message,
  memorize,
  messageText,
  modelExtractor,
  Runner,
  recall,
  StoreMemoryService,
} from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { HashingEmbeddings } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';
import { SqliteSessionService } from '../src/sqlite-session-service.js';
import { SqliteStore } from '../src/sqlite-store.js';

const QUESTION = 'What should I drink this afternoon?';

/** The assistant: answers with what its instruction says about the user's drinks. */
function assistantModel(): ScriptedChatModel {
  return new ScriptedChatModel((messages: readonly Message[]) => {
    const instruction = messages[0]?.role === 'system' ? messageText(messages[0]) : '';
    const question = messageText(messages.at(-1) as Message);
    if (question !== QUESTION) return 'Noted.';
    return instruction.includes('green tea') ? 'How about a pot of green tea?' : 'Maybe a glass of water?';
  });
}

/** The extraction model: writes down drink preferences it reads in the transcript. */
function extractionModel(): ScriptedChatModel {
  return new ScriptedChatModel((messages: readonly Message[]) => {
    const transcript = messageText(messages.at(-1) as Message);
    const facts = transcript.includes('I love green tea')
      ? ['The user prefers green tea, never coffee.']
      : [];
    return JSON.stringify({ memories: facts });
  });
}

/** One "process": its own store, session service, checkpointer, memory and runner over one SQLite file. */
function boot(filename: string, extractor: MemoryExtractor) {
  const store = new SqliteStore({
    filename,
    index: { embeddings: new HashingEmbeddings({ dimensions: 256 }), fields: ['text'] },
  });
  const sessionService = new SqliteSessionService({ filename });
  const checkpointer = new SqliteCheckpointer({ filename });
  const memory = new StoreMemoryService({ store, extractor });
  const model = assistantModel();
  const agent = new ChatModelAgent({
    name: 'barista',
    model,
    instruction: 'You are a friendly barista.',
    middleware: [recall({ memory }), memorize({ memory })],
  });
  const runner = new Runner({ agent, sessionService, checkpointer, appName: 'cafe' });
  const close = async () => {
    await runner.close();
    await sessionService.close();
    await checkpointer.close();
    await store.close();
  };
  return { runner, memory, model, sessionService, close };
}

async function ask(
  runner: Runner,
  userId: string,
  sessionId: string,
  message: string,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of runner.run({ userId, sessionId, message }))
    if (!event.partial) events.push(event);
  return events;
}

const replyOf = (events: readonly AgentEvent[]) =>
  events.filter((e) => e.message?.role === 'assistant').map((e) => messageText(e.message as Message));

describe('long-term memory across sessions and a restart (SQLite)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('recalls a preference told in session 1 in session 2 of a new process, for that user only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-memory-scenario-'));
    dirs.push(dir);
    const filename = join(dir, 'weft.db');

    // Process 1: its extraction never finishes (the process "dies" with it in flight) — the reply does
    // not wait for it.
    let extractionStarted!: () => void;
    const started = new Promise<void>((resolve) => (extractionStarted = resolve));
    const hanging: MemoryExtractor = () => {
      extractionStarted();
      return new Promise(() => undefined);
    };
    const first = boot(filename, hanging);
    const told = await ask(first.runner, 'alice', 's1', 'I love green tea, never coffee.');
    expect(replyOf(told)).toEqual(['Noted.']);
    expect(told.at(-1)?.turnComplete).toBe(true);
    await started;
    await first.close();

    // Process 2: new objects over the same file; the pending extraction is finished on start.
    const second = boot(filename, modelExtractor({ model: extractionModel() }));
    expect(await second.memory.recover()).toBe(1);
    const hits = await second.memory.search('drink', { appName: 'cafe', userId: 'alice' });
    expect(hits.map((hit) => hit.text)).toEqual(['The user prefers green tea, never coffee.']);

    const answered = await ask(second.runner, 'alice', 's2', QUESTION);
    expect(replyOf(answered)).toEqual(['How about a pot of green tea?']);
    const instruction = messageText(second.model.calls[0]?.messages[0] as Message);
    expect(instruction).toContain('You are a friendly barista.');
    expect(instruction).toContain('The user prefers green tea, never coffee.');
    const recalled = answered.find((e) => e.custom?.type === 'memory-recall');
    expect(recalled?.custom?.data).toMatchObject({
      query: QUESTION,
      memories: [{ text: 'The user prefers green tea, never coffee.' }],
    });

    // Another user of the same app: nothing recalled, a generic answer.
    const other = await ask(second.runner, 'bob', 's1', QUESTION);
    expect(replyOf(other)).toEqual(['Maybe a glass of water?']);
    const bobInstruction = messageText(second.model.calls[1]?.messages[0] as Message);
    expect(bobInstruction).not.toContain('green tea');
    expect(await second.memory.list({ appName: 'cafe', userId: 'bob' })).toEqual([]);
    await second.memory.idle();
    await second.close();
  });
});
