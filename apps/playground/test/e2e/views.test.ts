/// <reference lib="dom" />
// Issue #19 (3–5): the trace waterfall, token usage in the run header, trace and conversation, and a
// team conversation that says who is talking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, openGraph, runWith } from './browser.ts';

let s: DemoSession;

describe.skipIf(!hasChromium)('playground in Chromium: trace, usage, who is talking', () => {
  beforeAll(async () => {
    s = await openDemo();
  });
  afterAll(() => s?.close());

  it('labels each message of a team with its agent, and shows hand-offs as supervisor → researcher', async () => {
    const { page } = s;
    await page.click('[data-graph=supervisor]');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'Tell me about graphs' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await expect
      .poll(() => page.locator('[data-testid=transfer]').allTextContents(), { timeout: E2E_WAIT })
      .toEqual(['supervisor → researcher', 'supervisor → writer']);
    const agents = await page.locator('[data-testid=message-agent]').allTextContents();
    expect(new Set(agents.map((a) => a.replace('·', '').trim()))).toEqual(
      new Set(['supervisor', 'researcher', 'writer']),
    );
    const conversation = (await page.textContent('[data-testid=live-output]')) ?? '';
    expect(conversation).not.toContain('"type":"json"');
    expect(conversation).not.toContain('transferred_to');
    const perAgent = await page.locator('[data-testid=usage-agent]').allTextContents();
    expect(perAgent.map((line) => line.split(':')[0])).toEqual(['supervisor', 'researcher', 'writer']);
    expect(await page.textContent('[data-testid=usage-summary]')).toMatch(/6 model calls · [\d,]+ tokens/);
    await s.shot('34-team-conversation');
  });

  it('draws a fan-out run with a subgraph as a waterfall, and a bar opens its event', async () => {
    const { page } = s;
    await openGraph(page, 'map-reduce', 'summarize');
    await page.click('[data-testid=new-thread]');
    await runWith(page, {});
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.click('[data-testid=view-trace]');
    await page.waitForSelector('[data-testid=trace]');
    const spans = page.locator('[data-testid=span]');
    expect(await spans.first().getAttribute('data-kind')).toBe('run');
    expect(await page.locator('[data-testid=span] .span-label:text-is("research")').count()).toBe(3);
    const nested = page.locator('[data-testid=span][data-depth="2"]');
    expect(await nested.count()).toBeGreaterThanOrEqual(2);
    expect(await nested.first().textContent()).toContain('summarize › ');
    const bars = await spans.evaluateAll((buttons) =>
      buttons.map((b) => (b.querySelector('.span-bar') as HTMLElement).style.left),
    );
    expect(new Set(bars).size).toBeGreaterThan(2); // spread over time, not stacked at 0
    await page.locator('[data-testid=span][data-depth="2"]').first().click();
    await page.waitForSelector('[data-testid=event-detail]');
    expect(await page.textContent('[data-testid=event-detail]')).toContain('node-end');
    await s.shot('35-trace-waterfall');
  });

  it("shows an agent's model calls in the trace with their tokens, and the run's tokens in its header", async () => {
    const { page } = s;
    await openGraph(page, 'assistant', 'model');
    await page.click('[data-testid=new-thread]');
    await runWith(page, { message: 'What is the weather in Lyon?' });
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.click('[data-testid=view-trace]');
    const model = page.locator('[data-testid=span][data-kind=model]');
    await expect.poll(() => model.count()).toBeGreaterThanOrEqual(2);
    expect(await model.first().textContent()).toMatch(/model call · model · \d+ tokens/);
    expect(await page.textContent('[data-testid=run-usage]')).toMatch(/\d+ model calls · [\d,]+ tokens/);
    await model.first().click();
    await page.waitForSelector('[data-testid=model-call-detail]');
    await s.shot('36-trace-agent-usage');
  });

  it('expands host specialists from agentTools metadata, and nested agents read top to bottom', async () => {
    const { page } = s;
    await openGraph(page, 'host', 'host');
    await page.click('[data-testid="node-host"] .expand');
    await page.waitForSelector('[data-testid="node-host/tools"]');
    const top = async (id: string) => (await page.locator(`[data-testid="node-${id}"]`).boundingBox())!.y;
    const order = [
      'host/__start__',
      'host/init',
      'host/model',
      'host/tools',
      'host/afterAgent',
      'host/__end__',
    ];
    const ys = await Promise.all(order.map(top));
    expect(ys, order.join(' < ')).toEqual([...ys].sort((a, b) => a - b));
    expect(ys[0]).toBeLessThan(ys[3]!); // start above tools
    await page.click('[data-testid="node-host/tools"] .expand');
    await page.waitForSelector('[data-testid="node-host/tools/weather"]');
    await page.waitForSelector('[data-testid="node-host/tools/news"]');
    await page.click('[data-testid="node-host/tools/weather"] .expand');
    await page.waitForSelector('[data-testid="node-host/tools/weather/model"]');
    const inner = ['host/tools/weather/__start__', 'host/tools/weather/init', 'host/tools/weather/model'];
    const innerYs = await Promise.all(inner.map(top));
    expect(innerYs).toEqual([...innerYs].sort((a, b) => a - b));
    expect(await top('host/tools/__start__')).toBeLessThan(await top('host/tools/weather/init'));
    await s.shot('37-host-specialists-expanded');
  });
});
