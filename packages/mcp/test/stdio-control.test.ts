import type { ToolApprovalRequest } from '@weft/adk';
import { ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { MemorySessionState } from '@weft/adk/agent-graph';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { type McpToolset, type McpToolsetOptions, mcpToolset } from '../src/index.js';
import { childPids, everythingServer, toolMessages } from './servers.js';

const MARKER = 'server-everything/dist/index.js';
const open: McpToolset[] = [];
function everything(options: Partial<McpToolsetOptions> = {}): McpToolset {
  const toolset = mcpToolset({ ...everythingServer(), name: 'everything', ...options } as McpToolsetOptions);
  open.push(toolset);
  return toolset;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

const slowCall = { name: 'trigger-long-running-operation', arguments: { duration: 600, steps: 600 } };

describe('mcpToolset: abort, timeout, approval and closing', () => {
  test('cancelling the run during a slow tool answers it "aborted" and leaves the server usable', async () => {
    const toolset = everything({ include: ['echo', 'trigger-long-running-operation'] });
    let runner!: Runner;
    const model = new ScriptedChatModel([{ toolCalls: [slowCall] }, 'never']);
    const agent = new ChatModelAgent({
      name: 'user',
      model,
      tools: await toolset.tools(),
      middleware: [
        {
          wrapToolCall: (call, next) => {
            const result = next(call);
            runner.cancel({ userId: 'u', sessionId: 's' });
            return result;
          },
        },
      ],
    });
    runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    // the operation takes ten minutes: only the abort ends this run within the test's timeout
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    const session = await runner.sessionService.get({ appName: 'user', userId: 'u', sessionId: 's' });
    const answered = toolMessages(session?.events ?? []);
    expect(answered.map((m) => m.status)).toEqual(['error']);
    expect(messageText(answered[0]!)).toMatch(/^Aborted/);
    const [echo] = (await toolset.tools()).filter((t) => t.name === 'echo');
    const signal = new AbortController().signal;
    const context = {
      toolCallId: 'x',
      toolName: 'echo',
      signal,
      emit: () => {},
      state: new MemorySessionState(),
    };
    const result = await echo!.execute({ message: 'still here' }, context);
    expect(JSON.stringify(result)).toContain('Echo: still here');
  });

  test('timeoutMs fails a slow call with a timeout message the model reads', async () => {
    const toolset = everything({ include: ['trigger-long-running-operation'], timeoutMs: 300 });
    const model = new ScriptedChatModel([{ toolCalls: [slowCall] }, 'ok']);
    const agent = new ChatModelAgent({ name: 'user', model, tools: await toolset.tools() });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const [timedOut] = toolMessages(await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' })));
    expect(messageText(timedOut!)).toBe(
      'Error: Tool "trigger-long-running-operation" timed out after 300 ms.',
    );
  });

  test('needsApproval pauses the run like any tool; an approved call runs, a rejected one does not', async () => {
    const toolset = everything({
      include: ['echo', 'get-sum'],
      needsApproval: (tool, args) => tool === 'echo' && String(args.message).includes('secret'),
    });
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'echo', arguments: { message: 'the secret' } },
          { name: 'get-sum', arguments: { a: 1, b: 1 } },
        ],
      },
      { toolCalls: [{ name: 'echo', arguments: { message: 'another secret' } }] },
      'done',
    ]);
    const agent = new ChatModelAgent({ name: 'user', model, tools: await toolset.tools() });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const first = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    const pause = first.flatMap((e) => e.interrupts ?? [])[0];
    expect((pause!.value as ToolApprovalRequest).calls.map((c) => c.name)).toEqual(['echo']);
    expect(toolMessages(first)).toEqual([]);
    const second = await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: true }));
    const again = second.flatMap((e) => e.interrupts ?? [])[0];
    const third = await drain(
      runner.resume({
        userId: 'u',
        sessionId: 's',
        decisions: { [again!.id]: { approved: false, reason: 'no' } },
      }),
    );
    const answered = [...toolMessages(second), ...toolMessages(third)].map(messageText);
    expect(answered).toEqual([
      'Echo: the secret',
      'The sum of 1 and 1 is 2.',
      'The user rejected this call: no',
    ]);
  });

  test("closing the Runner closes the toolset: the server process ends and later use fails 'CLOSED'", async () => {
    const toolset = everything({ include: ['echo'] });
    const agent = new ChatModelAgent({
      name: 'user',
      model: new ScriptedChatModel(['hi']),
      tools: await toolset.tools(),
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), resources: [toolset] });
    expect(childPids(MARKER)).toHaveLength(1);
    await runner.close();
    expect(childPids(MARKER)).toEqual([]);
    await expect(toolset.tools()).rejects.toMatchObject({ code: 'CLOSED' });
  });
});
