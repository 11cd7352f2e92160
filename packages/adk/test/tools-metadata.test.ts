import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AgentTool, ChatModelAgent, jsonSchemaTool, tool } from '../src/index.js';
import { ScriptedChatModel } from '../src/testing/index.js';

describe("the tools node's metadata", () => {
  test("lists the agent's tools with where each comes from", () => {
    const add = tool({
      name: 'add',
      description: 'Adds two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const echo = jsonSchemaTool({
      name: 'echo',
      description: 'Echoes',
      parameters: { type: 'object', properties: {} },
      source: 'mcp:everything',
      execute: () => 'echo',
    });
    const helper = new ChatModelAgent({
      name: 'helper',
      description: 'Helps',
      model: new ScriptedChatModel([]),
    });
    const agent = new ChatModelAgent({
      name: 'host',
      model: new ScriptedChatModel([]),
      tools: [add, echo, new AgentTool(helper)],
    });
    const tools = agent
      .compile()
      .toJSON()
      .nodes.find((n) => n.id === 'tools')?.metadata;
    expect(tools?.tools).toEqual([
      { name: 'add', description: 'Adds two numbers' },
      { name: 'echo', description: 'Echoes', source: 'mcp:everything' },
      { name: 'helper', description: 'Helps', source: 'agent' },
    ]);
    expect(Object.keys(tools?.agentTools as object)).toEqual(['helper']);
  });
});
