// LangGraph's prebuilt ReAct agent driven by a zero-latency fake tool-calling chat model.
//
// @langchain/core 1.x ships FakeListChatModel (text only) and FakeStreamingChatModel (the same answer on
// every call), but no model that calls tools for N rounds and then answers, so this is the small fake
// LangGraph's own tests use: it counts the tool results in the conversation and decides from that.
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { langGraphConfig } from '../graphs/langgraph-graphs.ts';

/** Calls the `step` tool until `rounds` tool results are in the conversation, then answers `done`. */
export class FakeToolCallingChatModel extends BaseChatModel {
  readonly rounds: number;

  constructor(rounds: number) {
    super({});
    this.rounds = rounds;
  }

  _llmType(): string {
    return 'fake-tool-calling';
  }

  /** The agent binds its tools; the fake needs no tool specs, so binding returns the same model. */
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const done = messages.filter((message) => ToolMessage.isInstance(message)).length;
    const message =
      done < this.rounds
        ? new AIMessage({
            content: '',
            tool_calls: [{ id: `call_${done}`, name: 'step', args: { i: done } }],
          })
        : new AIMessage({ content: 'done' });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

const step = tool(async ({ i }: { i: number }) => `step ${i} ok`, {
  name: 'step',
  description: 'Does one step of the benchmark task.',
  schema: z.object({ i: z.number() }),
});

/** What an agent run ended with: how many messages, and the last one's text. */
export interface AgentOutcome {
  readonly messages: number;
  readonly last: string;
}

/** A `createReactAgent` whose model calls a tool `rounds` times; returns a function that runs it once. */
export function langGraphAgent(rounds: number): () => Promise<AgentOutcome> {
  const agent = createReactAgent({ llm: new FakeToolCallingChatModel(rounds), tools: [step] });
  return async () => {
    const state = await agent.invoke({ messages: [new HumanMessage('go')] }, langGraphConfig());
    const last = state.messages.at(-1);
    return { messages: state.messages.length, last: typeof last?.content === 'string' ? last.content : '' };
  };
}
