import { MemoryStore } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type AgentMiddleware,
  ChatModelAgent,
  MemorySessionService,
  type MiddlewareContext,
  Runner,
  StoreMemoryService,
  tool,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** Middleware noting, for every hook, what its context carries of the run. */
function recorder(seen: Map<string, unknown>, memory: StoreMemoryService | undefined): AgentMiddleware {
  const note = (hook: string, ctx: MiddlewareContext) => {
    if (seen.has(hook)) return;
    seen.set(hook, {
      user: ctx.sessionKey?.userId,
      memory: ctx.memory === undefined ? 'none' : ctx.memory === memory ? 'runner' : 'other',
      reportedModel: typeof ctx.reportedModel,
    });
  };
  return {
    beforeAgent: (ctx) => void note('beforeAgent', ctx),
    beforeModel: (_request, ctx) => void note('beforeModel', ctx),
    afterModel: (_reply, ctx) => void note('afterModel', ctx),
    beforeTool: (_call, ctx) => void note('beforeTool', ctx),
    afterTool: (_result, _call, ctx) => void note('afterTool', ctx),
    afterAgent: (ctx) => void note('afterAgent', ctx),
  };
}

async function hooksOf(memoryService: StoreMemoryService | undefined) {
  const seen = new Map<string, unknown>();
  const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, '3']);
  const agent = new ChatModelAgent({
    name: 'calc',
    model,
    tools: [add],
    middleware: [recorder(seen, memoryService)],
  });
  const runner = new Runner({
    agent,
    sessionService: new MemorySessionService(),
    ...(memoryService ? { memoryService } : {}),
  });
  await drain(runner.run({ userId: 'ada', sessionId: 's', message: '1 + 2?' }));
  return Object.fromEntries(seen);
}

describe('every hook sees its node (reportedModel) and the session, with the Runner memory', () => {
  test("with a memoryService: each hook's context has all three", async () => {
    const memoryService = new StoreMemoryService({ store: new MemoryStore() });
    const all = { user: 'ada', memory: 'runner', reportedModel: 'function' };
    expect(await hooksOf(memoryService)).toEqual({
      beforeAgent: all,
      beforeModel: all,
      afterModel: all,
      beforeTool: all,
      afterTool: all,
      afterAgent: all,
    });
  });

  test('without one: no memory, the node and session still there', async () => {
    const some = { user: 'ada', memory: 'none', reportedModel: 'function' };
    expect(Object.values(await hooksOf(undefined))).toEqual(Array(6).fill(some));
  });
});
