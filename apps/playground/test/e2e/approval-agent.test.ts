import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../src/server/demo/demo-app.ts';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, openGraph, runWith } from './browser.ts';

let s: DemoSession;
/** Holds the map-reduce's research tasks running until the test has seen them lit (open by default). */
let researchHeld: Promise<void> = Promise.resolve();
/** Holds the assistant's streamed answer after its third text chunk until the test releases it (open by default). */
let answerHeld: Promise<void> = Promise.resolve();

describe.skipIf(!hasChromium)('playground in Chromium: approvals, agents, breakpoints, subgraphs', () => {
  beforeAll(async () => {
    s = await openDemo(
      createDemoApp({
        chunkDelayMs: 60,
        researchGate: () => researchHeld,
        assistantChunkGate: (chunk, index) =>
          chunk.text !== undefined && index >= 3 ? answerHeld : undefined,
      }),
    );
  });
  afterAll(() => s?.close());

  it('runs the approval flow and approves in the form drawn from the interrupt schema', async () => {
    const { page } = s;
    await openGraph(page, 'refund-approval', 'approve');
    await runWith(page, { amount: '75' });
    await page.waitForSelector('[data-testid=resume-form]');
    expect(await page.textContent('[data-testid=interrupts]')).toContain('Refund 75 EUR for order A-17?');
    expect(await page.getAttribute('[data-testid="node-approve"]', 'data-status')).toBe('paused');
    await page.check('[data-testid=resume-form] [name=approve]');
    await page.fill('[data-testid=resume-form] [name=reviewer]', 'Dana');
    await s.shot('06-approval-form');
    await page.click('[data-testid=resume-form] button[type=submit]');
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await page.waitForSelector('[data-testid="node-payout"][data-status=done]');
    await page.waitForSelector('[data-testid=checkpoint][data-step="2"]');
    await page.locator('[data-testid=checkpoint]').last().click();
    expect(await page.textContent('[data-testid=checkpoint-view]')).toContain('Dana approved');
    await s.shot('07-approval-done');
  });

  it('streams an agent answer token by token and shows a model call as request and response', async () => {
    const { page } = s;
    await openGraph(page, 'assistant', 'model');
    let release!: () => void;
    answerHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await runWith(page, { message: 'What is the weather in Lyon?' });
      // The answer is held after its third chunk: what shows now is a part of it, drawn while the model
      // has not produced the rest.
      await page.waitForSelector('[data-testid=streaming]', { timeout: E2E_WAIT });
      await expect
        .poll(async () => (await page.textContent('[data-testid=streaming]')) ?? '', { timeout: E2E_WAIT })
        .toContain('Here is what');
      expect(await page.textContent('[data-testid=streaming]')).not.toContain('found');
      expect(await page.textContent('[data-testid=run-status]')).not.toContain('done');
      await s.shot('08-agent-streaming');
    } finally {
      answerHeld = Promise.resolve();
      release();
    }
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await expect
      .poll(() => page.textContent('[data-testid=live-output]'))
      .toContain('Sunny and 21 °C in Lyon');
    await page.locator('[data-testid=event-model-call]').first().click();
    const detail = (await page.textContent('[data-testid=model-call-detail]')) ?? '';
    expect(detail).toContain('You are a helpful assistant');
    expect(detail).toContain('What is the weather in Lyon?');
    expect(detail).toContain('get_weather({"city":"Lyon"})');
    await s.shot('09-agent-model-call');
  });

  it('approves a tool call of the agent in the UI', async () => {
    const { page } = s;
    await runWith(page, { message: 'Book a table for two, please' });
    await page.waitForSelector('[data-testid=tool-approval]', { timeout: E2E_WAIT });
    expect(await page.textContent('[data-testid=tool-approval]')).toContain('book_table');
    await s.shot('10-agent-tool-approval');
    await page.click('[data-testid=approve]');
    await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
    await expect
      .poll(() => page.textContent('[data-testid=live-output]'))
      .toContain('Booked Chez Weft for 2 at 19:30');
  });

  it('toggles a breakpoint on a node, pauses there and continues', async () => {
    const { page } = s;
    await openGraph(page, 'counter-loop', 'increment');
    await page.click('[data-testid=new-thread]');
    await page.click('[data-testid=bp-before-report]');
    await page.waitForSelector('[data-testid=bp-before-report].bp-on');
    await runWith(page, { target: '2', delayMs: '50' });
    await page.waitForSelector('[data-testid=continue]', { timeout: E2E_WAIT });
    expect(await page.textContent('[data-testid=interrupts]')).toContain('Breakpoint before report');
    expect(await page.getAttribute('[data-testid="node-report"]', 'data-status')).toBe('paused');
    await s.shot('11-breakpoint');
    await page.click('[data-testid=continue]');
    await page.waitForSelector('[data-testid="node-report"][data-status=done]', { timeout: E2E_WAIT });
  });

  it('expands a subgraph in place and lights up its nodes during a fan-out run', async () => {
    const { page } = s;
    await openGraph(page, 'map-reduce', 'summarize');
    await page.click('[data-testid="node-summarize"] .expand');
    await page.waitForSelector('[data-testid="node-summarize/polish"]');
    let release = (): void => undefined;
    researchHeld = new Promise((resolve) => {
      release = resolve;
    });
    await runWith(page, {});
    // The research tasks wait for `release`, so they are running whenever the page gets to look.
    await page.waitForSelector('[data-testid="node-research"][data-status=running]', { timeout: E2E_WAIT });
    release();
    researchHeld = Promise.resolve();
    await page.waitForSelector('[data-testid="node-summarize/polish"][data-status=done]', {
      timeout: E2E_WAIT,
    });
    expect(await page.textContent('[data-testid="node-research"]')).toContain('×3');
    await s.shot('12-map-reduce-subgraph');
  });

  it('runs the DAG graph', async () => {
    const { page } = s;
    await openGraph(page, 'dag-pipeline', 'report');
    await runWith(page, {});
    await page.waitForSelector('[data-testid="node-report"][data-status=done]', { timeout: E2E_WAIT });
    await page.waitForSelector('[data-testid=run-status]:text("done")');
    await s.shot('13-dag');
  });
});
