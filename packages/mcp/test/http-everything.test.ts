import { ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { MemorySessionState } from '@weft/adk/agent-graph';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { mcpToolset } from '../src/index.js';
import { type HostedEverything, hostEverythingSse, hostEverythingStreamable } from './http-host.js';
import { toolMessages, whenNotified } from './servers.js';

let streamable: HostedEverything;
let sse: HostedEverything;
beforeAll(async () => {
  streamable = await hostEverythingStreamable();
  sse = await hostEverythingSse();
});
afterAll(async () => {
  await streamable.close();
  await sse.close();
});

describe('mcpToolset over HTTP, against server-everything on loopback', () => {
  test('Streamable HTTP: a scripted agent calls its tools, with the given headers', async () => {
    const toolset = mcpToolset({
      url: streamable.url,
      headers: { 'x-weft-test': 'yes' },
      include: ['echo', 'get-sum'],
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'get-sum', arguments: { a: 20, b: 22 } }] },
      'done',
    ]);
    const agent = new ChatModelAgent({ name: 'user', model, tools: await toolset.tools() });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), resources: [toolset] });
    const [sum] = toolMessages(await drain(runner.run({ userId: 'u', sessionId: 's', message: 'add' })));
    expect(messageText(sum!)).toBe('The sum of 20 and 22 is 42.');
    expect(streamable.headers).toContain('yes');
    await runner.close();
  });

  test('the tool list refreshes when the server sends notifications/tools/list_changed', async () => {
    const toolset = mcpToolset({ url: streamable.url, name: 'everything' });
    const before = (await toolset.tools()).map((t) => t.name);
    expect(before).not.toContain('shout');
    const server = streamable.servers.at(-1)!;
    let changed = 0;
    const refreshed = whenNotified(
      (listener) => toolset.onListChanged(listener),
      () => ++changed > 0,
    );
    server.registerTool(
      'shout',
      { description: 'Says it louder', inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
    );
    await refreshed;
    const shout = (await toolset.tools()).find((t) => t.name === 'shout');
    expect(shout?.description).toBe('Says it louder');
    const signal = new AbortController().signal;
    const result = await shout!.execute(
      { text: 'hey' },
      {
        toolCallId: 'c',
        toolName: 'shout',
        signal,
        emit: () => {},
        state: new MemorySessionState(),
      },
    );
    expect(JSON.stringify(result)).toContain('HEY');
    await toolset.close();
  });

  test('falls back to the HTTP+SSE transport for a server that does not speak Streamable HTTP', async () => {
    const toolset = mcpToolset({ url: sse.url, include: ['echo'] });
    const [echo] = await toolset.tools();
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'echo', arguments: { message: 'old school' } }] },
      'done',
    ]);
    const agent = new ChatModelAgent({ name: 'user', model, tools: [echo!] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), resources: [toolset] });
    const [reply] = toolMessages(await drain(runner.run({ userId: 'u', sessionId: 's', message: 'echo' })));
    expect(messageText(reply!)).toBe('Echo: old school');
    await runner.close();
  });

  test('an unreachable server fails tools() with CONNECTION_FAILED naming it', async () => {
    const toolset = mcpToolset({ url: 'http://127.0.0.1:9/mcp', name: 'nowhere' });
    await expect(toolset.tools()).rejects.toMatchObject({
      code: 'CONNECTION_FAILED',
      message: expect.stringMatching(/MCP server "nowhere" .* could not be reached/),
    });
  });
});
