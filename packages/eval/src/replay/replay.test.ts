import {
  type ChatModel,
  type Message,
  messageText,
  systemMessage,
  toolMessage,
  userMessage,
} from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { appendReducer, END, MemoryCheckpointer, START, StateGraph } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatReplayReport, recordedModel, replayThread } from '../index.js';

const State = z.object({ messages: z.array(z.custom<Message>()) });

/** A small weather agent: a model node (its prompt given) and a tools node running `forecast`. */
function weatherAgent(model: ChatModel, prompt: string, forecast: (city: string) => string) {
  return new StateGraph(State, { reducers: { messages: appendReducer } })
    .addNode('model', async (state) => ({
      messages: [await model.generate([systemMessage(prompt), ...state.messages])],
    }))
    .addNode('tools', (state) => {
      const last = state.messages.at(-1);
      const calls = last?.role === 'assistant' ? (last.toolCalls ?? []) : [];
      return {
        messages: calls.map((call) =>
          toolMessage(forecast((JSON.parse(call.arguments) as { city: string }).city), {
            toolCallId: call.id,
            name: call.name,
          }),
        ),
      };
    })
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => {
      const last = state.messages.at(-1);
      return last?.role === 'assistant' && (last.toolCalls?.length ?? 0) > 0 ? 'tools' : END;
    })
    .addEdge('tools', 'model')
    .compile({ name: 'weather' });
}

/** Stands in for the live model: it asks the tool once, then answers in the language the prompt asks. */
function liveModel(): ScriptedChatModel {
  return new ScriptedChatModel((messages) => {
    const tool = messages.find((message) => message.role === 'tool');
    if (tool === undefined) return { toolCalls: [{ name: 'forecast', arguments: { city: 'Paris' } }] };
    const french = messageText(messages[0] as Message).includes('French');
    return french ? `Paris : ${messageText(tool)}, en français.` : `Paris: ${messageText(tool)}.`;
  });
}

const sunny = (city: string) => `sunny in ${city}`;

describe('replaying a recorded agent thread', () => {
  it('matches itself, shows a changed prompt as a diff at the model node, and a changed tool at the tools node', async () => {
    const production = new MemoryCheckpointer();
    const recorded = weatherAgent(liveModel(), 'Answer in English.', sunny).withOptions({
      checkpointer: production,
    });
    await recorded.invoke({ messages: [userMessage('Weather in Paris?')] }, { threadId: 'chat-1' });

    const unchanged = await replayThread('chat-1', {
      checkpointer: production,
      graph: (step) => weatherAgent(recordedModel(step), 'Answer in English.', sunny),
      ignoreKeys: ['id'],
    });
    expect(unchanged.changed).toBe(0);
    expect(unchanged.steps.map((step) => step.nodes.map((node) => node.node))).toEqual([
      ['model'],
      ['tools'],
      ['model'],
    ]);

    const newPrompt = await replayThread('chat-1', {
      checkpointer: production,
      graph: weatherAgent(liveModel(), 'Answer in French.', sunny),
      ignoreKeys: ['id'],
    });
    expect(newPrompt.changed).toBe(1);
    const answer = newPrompt.steps[2]?.nodes[0];
    expect(answer).toMatchObject({ node: 'model', status: 'changed' });
    expect(answer?.differences.map((difference) => difference.key)).toEqual(['messages']);
    const text = formatReplayReport(newPrompt);
    expect(text).toContain('step 2 · node "model" changed');
    expect(text).toContain('"Paris: sunny in Paris."');
    expect(text).toContain('"Paris : sunny in Paris, en français."');
    expect(text).toContain('1 of 3 replayed nodes differ (thread "chat-1")');

    const newTool = await replayThread('chat-1', {
      checkpointer: production,
      graph: (step) => weatherAgent(recordedModel(step), 'Answer in English.', (city) => `rain in ${city}`),
      ignoreKeys: ['id'],
    });
    expect(
      newTool.steps.flatMap((step) =>
        step.nodes.filter((node) => node.status !== 'same').map((node) => node.node),
      ),
    ).toEqual(['tools']);
  });

  it('a recorded model refuses more calls than the step recorded', async () => {
    const model = recordedModel({ checkpointId: 'c', parentId: 'p', step: 3, recorded: new Map() });
    await expect(model.generate([])).rejects.toMatchObject({ code: 'CASSETTE_MISS' });
  });
});
