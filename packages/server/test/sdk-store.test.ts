// The Store API through the SDK: putItem, getItem, searchItems (filters), deleteItem, listNamespaces —
// on the same Weft store graphs read as ctx.store; the server's own records are never reachable.
import type { Client } from '@langchain/langgraph-sdk';
import { END, START, StateGraph } from '@weft/compose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import type { ServedServer } from '../src/index.js';
import { startServer } from './fixtures/start.js';

let served: ServedServer;
let client: Client;

const recall = new StateGraph(z.object({ user: z.string(), food: z.string().optional() }))
  .addNode('recall', async (state, ctx) => {
    const item = await ctx.store?.get(['memories', state.user], 'food');
    return { food: String(item?.value.likes ?? 'unknown') };
  })
  .addEdge(START, 'recall')
  .addEdge('recall', END)
  .compile();

beforeAll(async () => {
  ({ served, client } = await startServer({ graphs: { recall } }));
});
afterAll(() => served.close());

test('items are put, read, searched with filters, listed by namespace and deleted', async () => {
  await client.store.putItem(['memories', 'ann'], 'food', { likes: 'ramen', kind: 'preference' });
  await client.store.putItem(['memories', 'ann'], 'city', { lives: 'Lyon', kind: 'fact' });
  await client.store.putItem(['memories', 'bob'], 'food', { likes: 'pho', kind: 'preference' });
  const item = await client.store.getItem(['memories', 'ann'], 'food');
  expect(item).toMatchObject({ namespace: ['memories', 'ann'], key: 'food', value: { likes: 'ramen' } });
  expect(item?.createdAt).toEqual(expect.any(String));
  const preferences = await client.store.searchItems(['memories'], { filter: { kind: 'preference' } });
  expect(preferences.items.map((hit) => hit.value.likes).sort()).toEqual(['pho', 'ramen']);
  const namespaces = await client.store.listNamespaces({ prefix: ['memories'] });
  expect(namespaces.namespaces).toEqual([
    ['memories', 'ann'],
    ['memories', 'bob'],
  ]);
  await client.store.deleteItem(['memories', 'ann'], 'city');
  await expect(client.store.getItem(['memories', 'ann'], 'city')).rejects.toMatchObject({ status: 404 });
});

test('graphs read the same store', async () => {
  await client.store.putItem(['memories', 'cy'], 'food', { likes: 'tacos' });
  expect(await client.runs.wait(null, 'recall', { input: { user: 'cy' } })).toEqual({
    user: 'cy',
    food: 'tacos',
  });
});

test("the server's records are not reachable through the Store API", async () => {
  await expect(client.store.searchItems(['weft-server'])).rejects.toMatchObject({ status: 403 });
  await expect(client.store.putItem(['weft-server', 'threads'], 'x', { a: 1 })).rejects.toMatchObject({
    status: 403,
  });
  const everything = await client.store.searchItems([], { limit: 1000 });
  expect(everything.items.some((hit) => hit.namespace[0] === 'weft-server')).toBe(false);
  const namespaces = await client.store.listNamespaces({ limit: 1000 });
  expect(namespaces.namespaces.some((namespace) => namespace[0] === 'weft-server')).toBe(false);
});
