/**
 * Google ADK's callback tests, ported: adk-python `tests/unittests/agents/test_base_agent.py`
 * (`test_run_async_after_agent_callback_append_reply`, `…_noop`), `tests/unittests/flows/llm_flows/
 * test_tool_callbacks.py` (before/after tool callbacks), adk-js `core/test/runner/runner_test.ts`
 * ("should modify event after execution", a plugin's `onEventCallback`), and the callback context's user
 * content. Weft's shapes: `afterAgent` returns `{ output }`, `beforeTool` a changed `ToolCall` or
 * `{ skip: result }`, `afterTool` a `ToolMessage`, a plugin's `onEvent` an `AgentEvent`.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  AdkError,
  type AgentEvent,
  type AgentMiddleware,
  ChatModelAgent,
  MemorySessionService,
  messageText,
  Runner,
  type RunnerPlugin,
  tool,
  toolMessage,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';
import { simplify } from './adk-parity-helpers.js';

const ref = { userId: 'u1', sessionId: 's1' };

function runnerWith(
  script: ConstructorParameters<typeof ScriptedChatModel>[0],
  options: { middleware?: AgentMiddleware[]; plugins?: RunnerPlugin[]; outputKey?: string } = {},
) {
  const simpleFunction = tool({
    name: 'simple_function',
    description: 'Echoes its input',
    parameters: z.object({ input_str: z.string().optional() }),
    execute: ({ input_str }) => ({ result: input_str ?? null }),
  });
  const model = new ScriptedChatModel(script, { name: 'mock' });
  const agent = new ChatModelAgent({
    name: 'root_agent',
    model,
    tools: [simpleFunction],
    ...(options.middleware ? { middleware: options.middleware } : {}),
    ...(options.outputKey ? { outputKey: options.outputKey } : {}),
  });
  const sessionService = new MemorySessionService();
  const runner = new Runner({
    agent,
    sessionService,
    streaming: false,
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  return { runner, model, sessionService };
}

describe('afterAgent (test_base_agent.py)', () => {
  test('test_run_async_after_agent_callback_append_reply: returned content is an extra reply event', async () => {
    const appendReply: AgentMiddleware = {
      afterAgent: () => ({ output: 'Agent reply from after agent callback.' }),
    };
    const { runner, model, sessionService } = runnerWith(['Hello, world!', 'Second turn.'], {
      middleware: [appendReply],
      outputKey: 'answer',
    });
    const events = await drain(runner.run({ ...ref, message: 'Hi' }));
    expect(simplify(events)).toEqual([
      ['root_agent', 'Hello, world!'],
      ['root_agent', 'Agent reply from after agent callback.'],
    ]);
    const session = await sessionService.get({ appName: 'root_agent', ...ref });
    expect(session?.state.answer).toBe('Agent reply from after agent callback.');
    // The appended reply is part of the conversation the next turn sends.
    await drain(runner.run({ ...ref, message: 'And?' }));
    expect(model.calls[1]?.messages.map((m) => messageText(m))).toEqual([
      'Hi',
      'Hello, world!',
      'Agent reply from after agent callback.',
      'And?',
    ]);
  });

  test('test_run_async_after_agent_callback_noop: a hook that returns nothing adds no event', async () => {
    const { runner } = runnerWith(['Hello, world!'], { middleware: [{ afterAgent: () => undefined }] });
    const events = await drain(runner.run({ ...ref, message: 'Hi' }));
    expect(simplify(events)).toEqual([['root_agent', 'Hello, world!']]);
  });
});

describe('beforeTool and afterTool (test_tool_callbacks.py)', () => {
  const call = (args: Record<string, unknown>) => ({
    toolCalls: [{ name: 'simple_function', arguments: args }],
  });

  test('test_before_tool_callback: a returned result answers the call; the tool does not run', async () => {
    let ran = 0;
    const { runner } = runnerWith([call({}), 'response1'], {
      middleware: [
        { beforeTool: () => ({ skip: { test: 'before_tool_callback' } }) },
        {
          wrapToolCall: (c, next) => {
            ran++;
            return next(c);
          },
        },
      ],
    });
    const events = await drain(runner.run({ ...ref, message: 'test' }));
    expect(simplify(events)).toEqual([
      ['root_agent', [{ call: 'simple_function', args: {} }]],
      ['root_agent', { result: 'simple_function', content: { test: 'before_tool_callback' } }],
      ['root_agent', 'response1'],
    ]);
    expect(ran).toBe(0);
  });

  test('test_before_tool_callback_noop', async () => {
    const { runner } = runnerWith([call({ input_str: 'simple_function_call' }), 'response1'], {
      middleware: [{ beforeTool: () => undefined }],
    });
    expect(simplify(await drain(runner.run({ ...ref, message: 'test' })))).toEqual([
      ['root_agent', [{ call: 'simple_function', args: { input_str: 'simple_function_call' } }]],
      ['root_agent', { result: 'simple_function', content: { result: 'simple_function_call' } }],
      ['root_agent', 'response1'],
    ]);
  });

  test('test_before_tool_callback_modify_tool_request: the tool runs with the changed arguments', async () => {
    const { runner } = runnerWith([call({}), 'response1'], {
      middleware: [
        { beforeTool: (c) => ({ ...c, arguments: JSON.stringify({ input_str: 'modified_input' }) }) },
      ],
    });
    expect(simplify(await drain(runner.run({ ...ref, message: 'test' })))).toEqual([
      ['root_agent', [{ call: 'simple_function', args: {} }]],
      ['root_agent', { result: 'simple_function', content: { result: 'modified_input' } }],
      ['root_agent', 'response1'],
    ]);
  });

  test('test_after_tool_callback: the returned result replaces the tool response', async () => {
    const { runner } = runnerWith([call({ input_str: 'simple_function_call' }), 'response1'], {
      middleware: [
        {
          afterTool: (result, c) =>
            toolMessage([{ type: 'json', value: { test: 'after_tool_callback' } }], {
              toolCallId: c.id,
              name: result.name,
            }),
        },
      ],
    });
    expect(simplify(await drain(runner.run({ ...ref, message: 'test' })))).toEqual([
      ['root_agent', [{ call: 'simple_function', args: { input_str: 'simple_function_call' } }]],
      ['root_agent', { result: 'simple_function', content: { test: 'after_tool_callback' } }],
      ['root_agent', 'response1'],
    ]);
  });

  test('plugins wrap the agent: the first plugin is outermost for beforeTool and afterTool', async () => {
    const order: string[] = [];
    const log = (name: string): AgentMiddleware => ({
      beforeTool: () => void order.push(`before ${name}`),
      afterTool: () => void order.push(`after ${name}`),
    });
    const { runner } = runnerWith([call({}), 'done'], {
      middleware: [log('agent')],
      plugins: [
        { name: 'outer', ...log('outer') },
        { name: 'inner', ...log('inner') },
      ],
    });
    await drain(runner.run({ ...ref, message: 'test' }));
    expect(order).toEqual([
      'before outer',
      'before inner',
      'before agent',
      'after agent',
      'after inner',
      'after outer',
    ]);
  });
});

describe('beforeAgent sees the turn (CallbackContext.user_content)', () => {
  test("the new user message is the last of beforeAgent's messages", async () => {
    const seen: string[][] = [];
    const { runner } = runnerWith(['Hello.', 'Again.'], {
      middleware: [{ beforeAgent: (ctx) => void seen.push(ctx.state.messages.map((m) => messageText(m))) }],
    });
    await drain(runner.run({ ...ref, message: 'first' }));
    await drain(runner.run({ ...ref, message: 'second' }));
    expect(seen).toEqual([['first'], ['first', 'Hello.', 'second']]);
  });
});

describe("a plugin's onEvent (adk-js runner_test: should modify event after execution)", () => {
  test('the caller receives the event a plugin returns; the session keeps the original', async () => {
    const seen: string[] = [];
    const rewrite: RunnerPlugin = {
      name: 'rewrite',
      onEvent: (event) => {
        seen.push(event.author);
        if (event.message?.role !== 'assistant') return undefined;
        return { ...event, message: { ...event.message, content: 'Modified event ON_EVENT_CALLBACK_MSG' } };
      },
    };
    const never: RunnerPlugin = { name: 'second', onEvent: () => ({ author: 'never' }) as AgentEvent };
    const { runner, sessionService } = runnerWith(['Hello!'], { plugins: [rewrite, never] });
    const events = await drain(runner.run({ ...ref, message: 'Hi' }));
    const reply = events.find((e) => e.message?.role === 'assistant');
    expect(reply?.message?.content).toBe('Modified event ON_EVENT_CALLBACK_MSG');
    const stored = await sessionService.get({ appName: 'root_agent', ...ref });
    expect(stored?.events.find((e) => e.message?.role === 'assistant')?.message?.content).toBe('Hello!');
    expect(seen).toEqual(['root_agent', 'root_agent']); // the reply and the closing turnComplete event
    expect(events.at(-1)?.author).toBe('never'); // the first plugin that answers wins; `rewrite` passed it on
  });
});

describe('a hook nothing calls is refused', () => {
  test('an unknown hook name on an agent middleware is a typed error naming it', () => {
    const make = (middleware: AgentMiddleware) => () =>
      new ChatModelAgent({ name: 'a', model: new ScriptedChatModel([]), middleware: [middleware] });
    const misspelled = { name: 'audit', beforeToolCall: () => undefined } as unknown as AgentMiddleware;
    expect(make(misspelled)).toThrow(AdkError);
    expect(make(misspelled)).toThrow(/"beforeToolCall".*audit/);
    const pluginOnly = { onEvent: () => undefined } as unknown as AgentMiddleware;
    expect(make(pluginOnly)).toThrow(/onEvent.*plugins/);
    const notAFunction = { beforeModel: 'yes' } as unknown as AgentMiddleware;
    expect(make(notAFunction)).toThrow(/"beforeModel"/);
  });

  test('an unknown hook name on a Runner plugin is a typed error naming the plugin', () => {
    const agent = new ChatModelAgent({ name: 'a', model: new ScriptedChatModel([]) });
    const plugin = { name: 'metrics', onEvents: () => undefined } as unknown as RunnerPlugin;
    const make = () => new Runner({ agent, sessionService: new MemorySessionService(), plugins: [plugin] });
    expect(make).toThrow(AdkError);
    expect(make).toThrow(/"onEvents".*"metrics"/);
  });
});
