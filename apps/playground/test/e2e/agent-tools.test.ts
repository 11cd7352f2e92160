/// <reference lib="dom" />
// Issue #20 (5): an agent's tools — MCP tools of a real MCP server (`@modelcontextprotocol/server-everything`
// over stdio, through @weft/mcp's mcpToolset) among them — show as the agent's tools, and each model call
// shows the tools it was offered: the agent's own, and those tool search loaded for that call.
import { fileURLToPath } from 'node:url';
import { ChatModelAgent, messageText } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { type McpToolset, mcpToolset, toolSearch } from '@weft/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineApp } from '../../src/server/define-app.ts';
import { type DemoSession, E2E_WAIT, hasChromium, openDemo, runWith } from './browser.ts';

const everything = fileURLToPath(
  new URL(
    '../../../../packages/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);

let s: DemoSession;
let toolset: McpToolset;

/** Searches for a tool that adds numbers, calls the first one found, then answers. */
function searchingModel() {
  return new ScriptedChatModel((messages, options) => {
    const last = messages.at(-1)!;
    if (last.role === 'user')
      return { toolCalls: [{ name: 'search_tools', arguments: { query: 'sum of two numbers' } }] };
    if (last.role === 'tool' && last.name === 'search_tools') {
      const found = /^- (\S+):/m.exec(messageText(last))?.[1] ?? 'none';
      return options.tools?.some((t) => t.name === found)
        ? { toolCalls: [{ name: found, arguments: { a: 2, b: 40 } }] }
        : `Cannot call ${found}.`;
    }
    return `The sum: ${messageText(last)}`;
  });
}

describe.skipIf(!hasChromium)(
  'playground in Chromium: an agent’s tools and the tools of each model call',
  () => {
    beforeAll(async () => {
      toolset = mcpToolset({ command: process.execPath, args: [everything, 'stdio'], name: 'everything' });
      const all = await toolset.tools();
      const own = all.filter((t) => t.name === 'echo' || t.name === 'get-env');
      const agent = new ChatModelAgent({
        name: 'mcp-agent',
        model: searchingModel(),
        tools: own,
        middleware: [toolSearch({ tools: all.filter((t) => !own.includes(t)), maxResults: 1 })],
      });
      s = await openDemo(defineApp({ agents: [agent] }));
    });
    afterAll(async () => {
      await s?.close();
      await toolset?.close();
    });

    it('lists the agent’s MCP tools with their server, and marks the tools tool search loaded for a call', async () => {
      const { page } = s;
      await page.click('[data-graph=mcp-agent]');
      await page.waitForSelector('[data-testid=agent-tools]');
      const tools = page.locator('[data-testid=agent-tool]');
      expect(await tools.allTextContents()).toEqual(['echomcp:everything', 'get-envmcp:everything']);
      await page.click('[data-testid=new-thread]');
      await runWith(page, { message: 'What is 2 + 40?' });
      await page.waitForSelector('[data-testid=run-status]:text("done")', { timeout: E2E_WAIT });
      await page.click('[data-testid=view-trace]');
      const calls = page.locator('[data-testid=span][data-kind=model]');
      await expect.poll(() => calls.count()).toBe(3);
      await calls.nth(1).click();
      await page.waitForSelector('[data-testid=offered-tools]');
      const offered = page.locator('[data-testid=offered-tool]');
      const rows = await offered.evaluateAll((items) =>
        items.map((item) => [item.querySelector('code')?.textContent, item.getAttribute('data-loaded')]),
      );
      expect(rows).toEqual([
        ['echo', 'false'],
        ['get-env', 'false'],
        ['search_tools', 'true'],
        ['get-sum', 'true'],
      ]);
      await s.shot('39-model-call-offered-tools');
    });
  },
);
