import { ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { type McpToolset, mcpToolset } from '../src/index.js';
import { childPids, everythingServer, toolMessages } from './servers.js';

const MARKER = 'server-everything/dist/index.js';
const open: McpToolset[] = [];
function everything(options: Partial<Parameters<typeof mcpToolset>[0]> = {}): McpToolset {
  const toolset = mcpToolset({ ...everythingServer(), name: 'everything', ...options } as Parameters<
    typeof mcpToolset
  >[0]);
  open.push(toolset);
  return toolset;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

function runnerFor(toolset: McpToolset, agent: ChatModelAgent) {
  return new Runner({
    agent,
    sessionService: new MemorySessionService(),
    streaming: false,
    resources: [toolset],
  });
}

describe('mcpToolset over stdio, against @modelcontextprotocol/server-everything', () => {
  test('a scripted agent calls its tools: text, image and structured results become message parts', async () => {
    const toolset = everything();
    const tools = await toolset.tools();
    const sum = tools.find((t) => t.name === 'get-sum')!;
    // the server's JSON Schema reaches the model as the server wrote it
    expect(sum.spec.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' } },
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'echo', arguments: { message: 'hello mcp' } },
          { name: 'get-sum', arguments: { a: 2, b: 40 } },
          { name: 'get-tiny-image' },
          { name: 'get-structured-content', arguments: { location: 'Chicago' } },
        ],
      },
      'done',
    ]);
    const agent = new ChatModelAgent({ name: 'user', model, tools });
    const events = await drain(runnerFor(toolset, agent).run({ userId: 'u', sessionId: 's', message: 'go' }));
    const [echo, total, image, weather] = toolMessages(events);
    expect(echo).toMatchObject({ status: 'success', content: [{ type: 'text', text: 'Echo: hello mcp' }] });
    expect(JSON.stringify(total?.content)).toContain('42');
    expect(image?.content).toContainEqual({
      type: 'image',
      mediaType: 'image/png',
      data: expect.stringMatching(/^iVBOR/),
    });
    expect(weather?.content).toContainEqual({
      type: 'json',
      value: expect.objectContaining({ temperature: expect.any(Number), conditions: expect.any(String) }),
    });
    // the model's tool specs for the call were the server's
    expect(model.calls[0]?.options.tools?.map((t) => t.name)).toContain('trigger-long-running-operation');
  });

  test('include, exclude and prefix choose and name the tools', async () => {
    const some = await everything({
      include: ['echo', 'get-sum', 'get-env'],
      exclude: ['get-env'],
      prefix: 'ev_',
    }).tools();
    expect(some.map((t) => t.name)).toEqual(['ev_echo', 'ev_get-sum']);
    const byPredicate = await everything({ include: (name) => name.startsWith('toggle-') }).tools();
    expect(byPredicate.map((t) => t.name).sort()).toEqual([
      'toggle-simulated-logging',
      'toggle-subscriber-updates',
    ]);
    expect(() => mcpToolset({ command: 'x', prefix: 'bad prefix' })).toThrow(/prefix "bad prefix"/);
  });

  test('an isError result and a crashed server become tool messages; the next call starts the server again', async () => {
    const toolset = everything({ include: ['echo', 'get-sum', 'trigger-long-running-operation'] });
    let crashed = 0;
    const model = new ScriptedChatModel([
      // the server rejects these arguments: an isError result
      { toolCalls: [{ name: 'get-sum', arguments: { a: 'two', b: 1 } }] },
      // the server process dies during this call
      { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 60, steps: 60 } }] },
      // and is started again for this one
      { toolCalls: [{ name: 'echo', arguments: { message: 'back' } }] },
      'done',
    ]);
    const agent = new ChatModelAgent({
      name: 'user',
      model,
      tools: await toolset.tools(),
      middleware: [
        {
          wrapToolCall: async (call, next) => {
            if (call.name === 'trigger-long-running-operation') {
              const result = next(call);
              // the call is under way: kill the server the way a crash would
              for (const pid of childPids(MARKER)) process.kill(pid, 'SIGKILL');
              crashed++;
              return result;
            }
            return next(call);
          },
        },
      ],
    });
    const before = childPids(MARKER);
    expect(before).toHaveLength(1);
    const events = await drain(runnerFor(toolset, agent).run({ userId: 'u', sessionId: 's', message: 'go' }));
    const [invalid, broken, echoed] = toolMessages(events);
    expect(invalid).toMatchObject({ status: 'error' });
    expect(messageText(invalid!)).toMatch(/number/i);
    expect(crashed).toBe(1);
    expect(broken).toMatchObject({ status: 'error', name: 'trigger-long-running-operation' });
    expect(messageText(broken!)).toMatch(/MCP server "everything": the connection closed during the call/);
    expect(echoed).toMatchObject({ status: 'success', content: [{ type: 'text', text: 'Echo: back' }] });
    const after = childPids(MARKER);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
  });
});
