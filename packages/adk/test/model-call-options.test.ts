import { END, START, StateGraph } from '@weft/compose';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../src/agent/chat-model-agent.js';
import { ScriptedChatModel } from '../src/testing/scripted-chat-model.js';

test("a run's call options reach the agent's model node: by its name, by path, and by the model kind", async () => {
  const model = new ScriptedChatModel(['a', 'b', 'c']);
  const agent = new ChatModelAgent({
    name: 'helper',
    model,
    modelOptions: { temperature: 0.7, maxTokens: 50 },
  });
  await agent.graph.invoke({ input: 'hi' }, { nodeOptions: { model: { temperature: 0 } } });
  expect(model.calls[0]?.options).toMatchObject({ temperature: 0, maxTokens: 50 });
  const parent = new StateGraph(z.object({ input: z.string().optional(), output: z.unknown() }))
    .addNode('helper', agent.graph)
    .addEdge(START, 'helper')
    .addEdge('helper', END)
    .compile();
  await parent.invoke({ input: 'hi' }, { nodeOptions: { 'helper/model': { temperature: 0.1 } } });
  expect(model.calls[1]?.options).toMatchObject({ temperature: 0.1, maxTokens: 50 });
  await parent.invoke({ input: 'hi' }, { kindOptions: { model: { maxTokens: 5 } } });
  expect(model.calls[2]?.options).toMatchObject({ temperature: 0.7, maxTokens: 5 });
});
