import { HashingEmbeddings, type Store, type StoreOptions } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../event/agent-event.js';
import { type MemoryExtractor, modelExtractor, verbatimExtractor } from '../memory/memory-extractor.js';
import { StoreMemoryService } from '../memory/store-memory-service.js';
import type { Message } from '../message/message.js';
import { assistantMessage, userMessage } from '../message/message-constructors.js';
import type { Session } from '../session/session.js';
import { ScriptedChatModel } from './scripted-chat-model.js';

/**
 * What a memory-service conformance factory returns: a fresh, empty store and how to dispose of it.
 *
 * @example
 * ```ts
 * const options: StoreOptions = { index: { embeddings: new HashingEmbeddings(), fields: ['text'] } };
 * const fixture: MemoryStoreFixture = { store: new MemoryStore(options) };
 * ```
 */
export interface MemoryStoreFixture {
  readonly store: Store;
  /** Runs after `store.close()` (if defined): drop tables, delete files. */
  readonly cleanup?: () => Promise<void>;
}

const app = 'shop';
const key = (userId: string, sessionId = 's1') => ({ appName: app, userId, sessionId });
const turn = (...texts: string[]): Message[] =>
  texts.map((text, index) =>
    index % 2 === 0 ? userMessage(text, { id: `m-${text}` }) : assistantMessage(text, { id: `m-${text}` }),
  );

/**
 * Registers the shared long-term memory conformance suite: a `StoreMemoryService` over the store the
 * factory makes, run twice — with vector search (the store gets `HashingEmbeddings` on `text`) and with
 * keyword ranking (no index). Every `Store` implementation must pass it.
 *
 * Covered: verbatim and model extraction, `addSession` (partial events skipped), search relevance and
 * `limit`, stable ids (the same text kept once), per-user and per-app isolation (ids holding `.` and `%`
 * included), `list` and `delete`, background extraction with `enqueue` + `idle`, a failed extraction
 * kept pending and finished by `recover` in a new service over the same store, and bad scopes (a
 * missing or empty app, user or session id, refused as sessions refuse it).
 *
 * @example
 * ```ts
 * import { describeMemoryServiceConformance } from '@weft/adk/testing/conformance';
 *
 * describeMemoryServiceConformance('MemoryStore', async (options) => ({ store: new MemoryStore(options) }));
 * ```
 */
export function describeMemoryServiceConformance(
  name: string,
  factory: (options: StoreOptions) => Promise<MemoryStoreFixture>,
): void {
  for (const vectors of [true, false]) {
    describe(`${name} (memory conformance, ${vectors ? 'vector' : 'keyword'} search)`, () => {
      const open: MemoryStoreFixture[] = [];
      const make = async (): Promise<Store> => {
        const index = { embeddings: new HashingEmbeddings({ dimensions: 256 }), fields: ['text'] };
        const fixture = await factory(vectors ? { index } : {});
        open.push(fixture);
        return fixture.store;
      };
      afterEach(async () => {
        for (const fixture of open.splice(0)) {
          await fixture.store.close?.();
          await fixture.cleanup?.();
        }
      });
      describeCases(make);
    });
  }
}

function describeCases(make: () => Promise<Store>): void {
  it('keeps messages verbatim and finds the relevant one first', async () => {
    const memory = new StoreMemoryService({ store: await make() });
    await memory.addMessages(key('u1'), turn('I prefer green tea over coffee', 'Noted!'));
    await memory.addMessages(
      key('u1', 's2'),
      turn('My flight to Lisbon leaves on Friday', 'Have a good trip.'),
    );
    const [best] = await memory.search('which tea do I like', { appName: app, userId: 'u1', limit: 1 });
    expect(best?.text).toBe('I prefer green tea over coffee');
    expect(best?.author).toBe('user');
    expect(best?.sessionId).toBe('s1');
    expect(best?.score).toBeGreaterThan(0);
    const two = await memory.search('flight to Lisbon', { appName: app, userId: 'u1', limit: 2 });
    expect(two.length).toBeLessThanOrEqual(2);
    expect(two[0]?.text).toContain('Lisbon');
  });

  it('never shows one user or app the memories of another (ids with "." and "%" too)', async () => {
    const memory = new StoreMemoryService({ store: await make() });
    await memory.addMessages(key('a.b'), turn('secret: I prefer green tea'));
    for (const userId of ['a%2Eb', 'a', 'a.b.c', 'b']) {
      expect(await memory.search('green tea', { appName: app, userId })).toEqual([]);
      expect(await memory.list({ appName: app, userId })).toEqual([]);
    }
    expect(await memory.search('green tea', { appName: 'other', userId: 'a.b' })).toEqual([]);
    expect(await memory.search('green tea', { appName: app, userId: 'a.b' })).toHaveLength(1);
  });

  it('keeps the same text once, lists newest first and deletes', async () => {
    const memory = new StoreMemoryService({ store: await make() });
    const first = await memory.addMessages(key('u1'), turn('I like jazz'));
    await memory.addMessages(key('u1', 's2'), turn('I like jazz', 'Me too'));
    const all = await memory.list({ appName: app, userId: 'u1' });
    expect(all.map((entry) => entry.text).sort()).toEqual(['I like jazz', 'Me too']);
    await memory.delete({ appName: app, userId: 'u1' }, first[0]?.id as string);
    expect((await memory.list({ appName: app, userId: 'u1' })).map((e) => e.text)).toEqual(['Me too']);
  });

  it('adds a session from its committed events', async () => {
    const memory = new StoreMemoryService({
      store: await make(),
      extractor: verbatimExtractor({ roles: ['user'] }),
    });
    const event = (message: Message, partial = false): AgentEvent => ({
      id: `e-${Math.random()}`,
      invocationId: 'i1',
      author: message.role === 'user' ? 'user' : 'helper',
      timestamp: 1,
      message,
      actions: {},
      ...(partial ? { partial } : {}),
    });
    const session: Session = {
      ...key('u1'),
      state: {},
      lastUpdateTime: 1,
      status: 'idle',
      statusTime: 1,
      turns: 1,
      events: [
        event(userMessage('I am allergic to peanuts')),
        event(assistantMessage('I will remember.')),
        event(userMessage('partial text'), true),
      ],
    };
    const added = await memory.addSession(session);
    expect(added.map((entry) => entry.text)).toEqual(['I am allergic to peanuts']);
  });

  it('extracts with a model, telling it what is already known', async () => {
    const model = new ScriptedChatModel([
      '{"memories": ["The user prefers tea."]}',
      'Sure: {"memories": ["The user lives in Oslo."]}',
    ]);
    const memory = new StoreMemoryService({ store: await make(), extractor: modelExtractor({ model }) });
    await memory.addMessages(key('u1'), turn('Tea please, never coffee', 'OK'));
    await memory.addMessages(key('u1', 's2'), turn('I moved to Oslo'));
    const texts = (await memory.list({ appName: app, userId: 'u1' })).map((e) => e.text).sort();
    expect(texts).toEqual(['The user lives in Oslo.', 'The user prefers tea.']);
    const secondPrompt = JSON.stringify(model.calls[1]?.messages);
    expect(secondPrompt).toContain('The user prefers tea.');
    expect(secondPrompt).toContain('I moved to Oslo');
  });

  it('extracts an enqueued turn in the background', async () => {
    const memory = new StoreMemoryService({ store: await make() });
    await memory.enqueue(key('u1'), turn('I prefer aisle seats'));
    await memory.idle();
    expect((await memory.search('aisle seats', { appName: app, userId: 'u1' }))[0]?.text).toBe(
      'I prefer aisle seats',
    );
    expect(await memory.recover()).toBe(0);
  });

  it('keeps a failed extraction pending; a new service over the same store finishes it', async () => {
    const store = await make();
    const errors: unknown[] = [];
    const failing: MemoryExtractor = async () => {
      throw new Error('model down');
    };
    const crashed = new StoreMemoryService({ store, extractor: failing, onError: (e) => errors.push(e) });
    await crashed.enqueue(key('u1'), turn('I prefer window seats'));
    await crashed.idle();
    expect(errors).toHaveLength(1);
    expect(await crashed.list({ appName: app, userId: 'u1' })).toEqual([]);
    const restarted = new StoreMemoryService({ store });
    expect(await restarted.recover()).toBe(1);
    expect((await restarted.list({ appName: app, userId: 'u1' })).map((e) => e.text)).toEqual([
      'I prefer window seats',
    ]);
    expect(await restarted.recover()).toBe(0);
  });

  it('rejects a scope without app or user, or with an empty one, as sessions do — and stores nothing', async () => {
    const store = await make();
    const memory = new StoreMemoryService({ store });
    const bad = { userId: 'u1' } as unknown as { appName: string; userId: string };
    await expect(memory.search('x', bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const empty = {
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/userId must be a non-empty string/),
    };
    await expect(memory.addMessages(key(''), turn('I like tea'))).rejects.toMatchObject(empty);
    await expect(memory.enqueue(key(''), turn('I like tea'))).rejects.toMatchObject(empty);
    await expect(memory.search('tea', { appName: app, userId: '' })).rejects.toMatchObject(empty);
    await expect(memory.list({ appName: app, userId: '' })).rejects.toMatchObject(empty);
    await expect(memory.delete({ appName: app, userId: '' }, 'x')).rejects.toMatchObject(empty);
    await expect(memory.list({ appName: '', userId: 'u1' })).rejects.toMatchObject({
      message: expect.stringMatching(/appName must be a non-empty string/),
    });
    await expect(
      memory.addMessages({ ...key('u1'), sessionId: '' }, turn('I like tea')),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/sessionId must be a non-empty string/),
    });
    expect(await store.search([])).toEqual([]);
  });
}
