// Issue #19 (4): the app's price table reaches the web app with the graph list.
import { MemoryCheckpointer } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { defineApp } from '../../src/server/define-app.ts';
import { buildAssistantAgent } from '../../src/server/demo/assistant-agent.ts';
import { createRegistry } from '../../src/server/registry.ts';
import { startHarness } from './harness.ts';

describe('prices', () => {
  it('GET /api/graphs sends the default prices with the app’s on top', async () => {
    const harness = await startHarness();
    try {
      const { status, body } = await harness.request('GET', '/api/graphs');
      expect(status).toBe(200);
      expect(body.prices.scripted).toEqual({ input: 3, output: 15, cachedInput: 0.3 });
      expect(body.prices['gpt-4o-mini']).toEqual({ input: 0.15, output: 0.6, cachedInput: 0.075 });
    } finally {
      await harness.close();
    }
  });

  it('lists invalid prices as a load problem and keeps the defaults', () => {
    const agent = buildAssistantAgent();
    const app = defineApp({ agents: [agent], prices: { mine: { input: -1, output: 2 } } });
    const registry = createRegistry(app, new MemoryCheckpointer());
    expect(registry.problems).toEqual([expect.stringContaining('the price "input" of model "mine" is -1')]);
    expect(registry.prices.mine).toBeUndefined();
    expect(registry.entries.has(agent.name)).toBe(true);
  });
});
