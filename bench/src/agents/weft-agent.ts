// Weft's ChatModelAgent (from @weft/adk) driven by the scripted model from @weft/adk/testing, with zero
// latency, so only the framework is measured.
import { ChatModelAgent, type Message, tool, userMessage } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import type { Checkpointer } from '@weft/compose';
import { z } from 'zod';
import type { AgentOutcome } from './langgraph-agent.ts';

function textOf(message: Message | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => ('text' in part ? part.text : '')).join('');
}

let threads = 0;

/**
 * A `ChatModelAgent` whose model calls a tool `rounds` times; returns a function that runs it once
 * (with `checkpointer`: compiled with it, each run on a new thread, so every step is checkpointed).
 */
export function weftAgent(rounds: number, checkpointer?: Checkpointer): () => Promise<AgentOutcome> {
  const model = new ScriptedChatModel((messages) => {
    const done = messages.filter((message) => message.role === 'tool').length;
    return done < rounds ? { toolCalls: [{ name: 'step', arguments: { i: done } }] } : 'done';
  });
  const step = tool({
    name: 'step',
    description: 'Does one step of the benchmark task.',
    parameters: z.object({ i: z.number() }),
    execute: ({ i }) => `step ${i} ok`,
  });
  const agent = new ChatModelAgent({ name: 'bench', model, tools: [step], maxIterations: rounds + 5 });
  const graph = checkpointer ? agent.compile({ checkpointer }) : agent.graph;
  return async () => {
    const state = await graph.invoke(
      { messages: [userMessage('go')] },
      checkpointer ? { threadId: `bench-agent-${process.pid}-${++threads}` } : {},
    );
    return { messages: state.messages.length, last: textOf(state.messages.at(-1)) };
  };
}
