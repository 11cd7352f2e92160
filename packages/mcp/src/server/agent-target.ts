import { randomUUID } from 'node:crypto';
import { type Agent, type AgentEvent, messageText, Runner, type SessionService } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';
import { WeftMcpError } from '../errors/weft-mcp-error.js';
import { type ServeOutcome, type ServeTarget, threadIdFor } from './serve-target.js';

const USER = 'mcp';

/** An agent as an MCP tool: `{ message, thread_id? }` runs one turn of a conversation through a Runner. */
export function agentTarget(
  agent: Agent,
  stores: { readonly sessionService: SessionService; readonly checkpointer: Checkpointer },
): ServeTarget {
  const runner = new Runner({ agent, ...stores, streaming: false });
  const sessionOf = (threadId: string) => threadId.slice(agent.name.length + 1);
  const finish = async (threadId: string, events: AsyncIterable<AgentEvent>): Promise<ServeOutcome> => {
    let text = '';
    const interrupts: Array<{ id: string; value: unknown }> = [];
    for await (const event of events) {
      if (event.partial) continue;
      for (const pause of event.interrupts ?? []) interrupts.push({ id: pause.id, value: pause.value });
      const message = event.message;
      if (message?.role === 'assistant' && !message.toolCalls?.length) text = messageText(message);
    }
    if (interrupts.length > 0) return { status: 'interrupted', threadId, interrupts };
    return { status: 'done', threadId, output: text, text };
  };
  return {
    name: agent.name,
    description: agent.description || `Talks to the agent "${agent.name}"; returns its answer.`,
    inputSchema: {
      type: 'object',
      properties: {
        message: { type: 'string', description: 'What to say to the agent.' },
        thread_id: {
          type: 'string',
          description:
            'Continue the conversation of an earlier result (its thread_id); omit to start a new one.',
        },
      },
      required: ['message'],
      additionalProperties: false,
    },
    start: (args, signal) => {
      if (typeof args.message !== 'string') {
        throw new WeftMcpError('INVALID_ARGUMENT', `agent "${agent.name}": "message" must be a string`);
      }
      const given = typeof args.thread_id === 'string' ? args.thread_id : undefined;
      const threadId = given ?? threadIdFor(agent.name, randomUUID());
      const ref = { userId: USER, sessionId: sessionOf(threadId), signal };
      return finish(threadId, runner.run({ ...ref, message: args.message }));
    },
    resume: (threadId, answer, signal) =>
      finish(
        threadId,
        runner.resume({ userId: USER, sessionId: sessionOf(threadId), signal, decisions: answer }),
      ),
  };
}
