import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { PlaygroundApp } from '../../src/server/define-app.ts';
import { createDemoApp } from '../../src/server/demo/demo-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';
import { chromiumArgs, chromiumPath, hasChromium } from './chromium.ts';

export { hasChromium };

if (!hasChromium) {
  console.warn(
    `\n[e2e] SKIPPED: ${chromiumPath} is missing. Install it with: apt-get update && apt-get install -y chromium\n`,
  );
}

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

/**
 * How long any wait for the page may take. Waits only catch hangs: on a loaded 2-core machine a run the
 * page shows in a second may take a minute, so no test relies on a shorter margin.
 */
export const E2E_WAIT = 120_000;

/** A browser on the demo app. */
export interface DemoSession {
  readonly page: Page;
  readonly server: PlaygroundServer;
  /** Saves a screenshot as test-output/<name>.png. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the demo server (ephemeral port, in-memory store) — or one serving `app` — and opens it in
 * headless Chromium.
 */
export async function openDemo(
  app: PlaygroundApp = createDemoApp({ chunkDelayMs: 60 }),
): Promise<DemoSession> {
  mkdirSync(outputDir, { recursive: true });
  const server = await startServer({
    app,
    port: 0,
    database: ':memory:',
  });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs],
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(E2E_WAIT);
    page.on('pageerror', (error) => console.error('[e2e] page error:', error.message));
    // The link weft dev prints: its token becomes this port's cookie, which the web app's calls carry.
    await page.goto(server.openUrl);
    await page.waitForSelector('[data-testid=graph]');
    const opened = browser;
    return {
      page,
      server,
      shot: async (name) => {
        await page.screenshot({ path: `${outputDir}${name}.png` });
      },
      close: async () => {
        await opened.close();
        await server.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.close();
    throw error;
  }
}

/** Opens a graph of the demo (and waits for it to be drawn). */
export async function openGraph(page: Page, graphId: string, firstNode: string): Promise<void> {
  await page.click(`[data-graph=${graphId}]`);
  await page.waitForSelector(`[data-testid="node-${firstNode}"]`);
}

/** Fills the input form's fields (by property name) and presses Run. */
export async function runWith(page: Page, fields: Readonly<Record<string, string>>): Promise<void> {
  for (const [name, value] of Object.entries(fields))
    await page.fill(`[data-testid=input-form] [name="${name}"]`, value);
  await page.click('[data-testid=input-form] button[type=submit]');
}

/** The number in the timeline's step counter. */
export async function stepCount(page: Page): Promise<number> {
  return Number.parseInt((await page.textContent('[data-testid=step-count]')) ?? '0', 10);
}

/** What the page showed at one change of its step counter or run status (see {@link recordSteps}). */
export interface ShownStep {
  readonly steps: number;
  readonly status: string;
}

/**
 * Records, inside the page, every change of the step counter and the run status from now on; the returned
 * function reads the record. The page records as it renders, so a test can assert what the page showed
 * while a run was going without sampling it in time from outside (which a loaded machine can miss).
 */
export async function recordSteps(page: Page): Promise<() => Promise<ShownStep[]>> {
  await page.evaluate(() => {
    const shown: { steps: number; status: string }[] = [];
    const read = () => ({
      steps: Number.parseInt(document.querySelector('[data-testid=step-count]')?.textContent ?? '0', 10),
      status: document.querySelector('[data-testid=run-status]')?.textContent ?? '',
    });
    const note = () => {
      const now = read();
      const last = shown.at(-1);
      if (!last || last.steps !== now.steps || last.status !== now.status) shown.push(now);
    };
    note();
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    (globalThis as { weftShownSteps?: typeof shown }).weftShownSteps = shown;
  });
  return () =>
    page.evaluate(() => [...((globalThis as { weftShownSteps?: ShownStep[] }).weftShownSteps ?? [])]);
}

/** A thread-history answer the page asked for, held back by {@link holdLatestHistory}. */
export interface HeldHistory {
  /** Hands the page the held answer (and every later one at once), then waits until the page has drawn it. */
  release(): Promise<void>;
}

/**
 * Holds back the page's newest request for a thread's history: each new request releases the one held
 * before it. The page's last history answer of a run then arrives when the test says so, e.g. after the
 * user has started editing — the order a loaded machine produces by chance, made certain.
 */
export async function holdLatestHistory(page: Page): Promise<HeldHistory> {
  const pattern = '**/api/threads/*/history';
  let held: (() => Promise<void>) | undefined;
  let holding = true;
  await page.route(pattern, async (route) => {
    const answer = await route.fetch();
    const send = () => route.fulfill({ response: answer });
    if (!holding) return send();
    const before = held;
    held = send;
    await before?.();
  });
  return {
    release: async () => {
      holding = false;
      const last = held;
      held = undefined;
      const drawn = page.waitForResponse((response) => response.url().endsWith('/history'));
      await last?.();
      await drawn;
      // The answer is parsed and rendered in the page's next frames.
      await page.evaluate(
        () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
      );
      await page.unroute(pattern);
    },
  };
}
