import type { NodeContext } from '@weft/compose';
import { z } from 'zod';
import { MaxIterationsError } from '../errors/max-iterations-error.js';
import { eventId } from '../internal/event-id.js';
import type { AssistantMessage } from '../message/message.js';
import { concatMessageChunks, type MessageChunk } from '../message/message-chunk.js';
import { systemMessage } from '../message/message-constructors.js';
import type { MessagesUpdate } from '../message/messages-reducer.js';
import type { ChatModelCallOptions } from '../model/chat-model.js';
import { zodToJsonSchema } from '../tool/tool.js';
import { type AgentRunContext, agentContextOf } from './agent-context.js';
import type { AgentState } from './agent-state.js';
import { historyFor } from './history-view.js';
import { resolveInstruction } from './instruction.js';
import { InvocationState } from './invocation-state.js';
import { composeWrap, type ModelRequest, runAfter, runBefore } from './middleware.js';
import { middlewareContext, type ResolvedAgent } from './resolved-agent.js';

/**
 * The `model` node of the ReAct graph: renders the instruction, runs `beforeModel` hooks, calls the
 * model through the `wrapModel` chain (streaming partial events when the run streams), runs
 * `afterModel` hooks, commits the reply as an event, and appends it to the history.
 */
export function modelNode(agent: ResolvedAgent) {
  return async (
    state: AgentState,
    ctx: NodeContext,
  ): Promise<Partial<AgentState> & { messages: MessagesUpdate }> => {
    if (state.iterations >= agent.maxIterations)
      throw new MaxIterationsError(agent.name, agent.maxIterations);
    const run = agentContextOf(ctx.config);
    const session = new InvocationState(run.sessionState, state.stateDelta, run.temp);
    const history: MessagesUpdate[] = [];
    const hooks = middlewareContext(agent, state, session, history);
    const instruction = await resolveInstruction(agent.instruction, {
      state: session.snapshot(),
      agentName: agent.name,
    });
    const initial: ModelRequest = {
      messages: instruction
        ? [systemMessage(instruction), ...historyFor(agent.name, state.messages)]
        : historyFor(agent.name, state.messages),
      tools: [...agent.tools],
      options: { ...agent.modelOptions, ...responseFormat(agent) },
    };
    const request = await runBefore(agent.middleware, initial, (m, r) => m.beforeModel?.(r, hooks));
    const call = composeWrap<ModelRequest, AssistantMessage>(
      agent.middleware,
      (m) => (m.wrapModel ? (r, next) => m.wrapModel!(r, next, hooks) : undefined),
      (r) => callModel(agent, r, ctx.signal, run),
    );
    const answer = await runAfter(agent.middleware, await call(request), (m, r) => m.afterModel?.(r, hooks));
    const reply: AssistantMessage = { ...answer, id: answer.id ?? eventId('msg'), author: agent.name };
    await run.emit({
      author: agent.name,
      message: reply,
      actions: {},
      ...(reply.usage ? { usage: reply.usage } : {}),
    });
    return {
      messages: [...history.flatMap((h) => (Array.isArray(h) ? h : [h])), reply],
      iterations: state.iterations + 1,
    };
  };
}

function responseFormat(agent: ResolvedAgent): Pick<ChatModelCallOptions, 'responseFormat'> {
  if (!agent.outputSchema) return {};
  return {
    responseFormat: {
      type: 'json_schema',
      name: `${agent.name}_output`,
      schema: zodToJsonSchema(agent.outputSchema ?? z.unknown()),
    },
  };
}

async function callModel(
  agent: ResolvedAgent,
  request: ModelRequest,
  signal: AbortSignal,
  run: AgentRunContext,
): Promise<AssistantMessage> {
  const options: ChatModelCallOptions = {
    ...request.options,
    signal,
    ...(request.tools.length > 0 ? { tools: request.tools.map((t) => t.spec) } : {}),
  };
  if (!run.streaming) return agent.model.generate(request.messages, options);
  const chunks: MessageChunk[] = [];
  for await (const chunk of agent.model.stream(request.messages, options)) {
    chunks.push(chunk);
    run.emitPartial({ author: agent.name, partial: true, chunk, actions: {} });
  }
  return concatMessageChunks(chunks);
}
