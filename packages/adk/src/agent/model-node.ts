import type { NodeContext } from '@weft/compose';
import { z } from 'zod';
import { MaxIterationsError } from '../errors/max-iterations-error.js';
import { eventId } from '../internal/event-id.js';
import type { AssistantMessage } from '../message/message.js';
import { systemMessage } from '../message/message-constructors.js';
import type { MessagesUpdate } from '../message/messages-reducer.js';
import type { ChatModelCallOptions } from '../model/chat-model.js';
import { conversationFor } from '../multi/hand-off-view.js';
import { transferInstruction } from '../multi/transfer.js';
import { zodToJsonSchema } from '../tool/tool.js';
import { agentContextOf, reportAgentEvent } from './agent-context.js';
import type { AgentState } from './agent-state.js';
import { resolveInstruction } from './instruction.js';
import { instructionArtifacts } from './instruction-artifacts.js';
import { InvocationState } from './invocation-state.js';
import { latestResultsView } from './latest-results-view.js';
import { composeWrap, type ModelRequest, runAfter, runBefore } from './middleware.js';
import type { OfferedTools } from './offered-tools.js';
import { callModelInNode } from './reported-model.js';
import { hookScope, middlewareContext, type ResolvedAgent } from './resolved-agent.js';
import { middlewareOf } from './run-middleware.js';

/**
 * The `model` node of the ReAct graph: renders the instruction, runs `beforeModel` hooks, calls the
 * model through the `wrapModel` chain (streaming partial events when the run streams), runs
 * `afterModel` hooks, commits the reply as an event, and appends it to the history. The tools the call
 * was offered (after `beforeModel`) are recorded in `offered`: they are the tools its reply's calls run.
 */
export function modelNode(agent: ResolvedAgent, offered: OfferedTools) {
  return async (
    state: AgentState,
    ctx: NodeContext,
  ): Promise<Partial<AgentState> & { messages: MessagesUpdate }> => {
    if (state.iterations >= agent.maxIterations)
      throw new MaxIterationsError(agent.name, agent.maxIterations);
    const run = agentContextOf(ctx.config);
    const session = new InvocationState(run.sessionState, state.stateDelta, run.temp);
    const history: MessagesUpdate[] = [];
    const hooks = middlewareContext(agent, state, session, {
      historyUpdates: history,
      emit: (event) => reportAgentEvent(ctx, event),
      signal: ctx.signal,
      ...hookScope(run, ctx),
    });
    const instruction = withTransferSection(
      agent,
      await resolveInstruction(agent.instruction, {
        state: session.snapshot(),
        agentName: agent.name,
        ...(run.artifacts && run.session
          ? { artifact: instructionArtifacts(run.artifacts, run.session, agent.name) }
          : {}),
      }),
    );
    // Results that came after their turn (a long-running tool's) are shown after their calls.
    const conversation = latestResultsView(conversationFor(agent.name, state.messages));
    const initial: ModelRequest = {
      messages: instruction ? [systemMessage(instruction), ...conversation] : conversation,
      tools: [...agent.tools],
      options: {
        ...agent.modelOptions,
        // What the run routed to this model node (`nodeOptions` by path, `kindOptions.model`): a
        // temperature for this run, for one. A `ChatModelCallOptions` object by the `model` kind's contract.
        ...(ctx.options as ChatModelCallOptions | undefined),
        ...responseFormat(agent),
        ...(run.session ? { run: run.session } : {}),
      },
    };
    const middleware = middlewareOf(agent.middleware, run);
    const request = await runBefore(middleware, initial, (m, r) => m.beforeModel?.(r, hooks));
    // The model that answered last (a fallback wrapper may have called several): the reply's model.
    let answeredBy = agent.model.name;
    const call = composeWrap<ModelRequest, AssistantMessage>(
      middleware,
      (m) => (m.wrapModel ? (r, next) => m.wrapModel!(r, next, hooks) : undefined),
      (r) => {
        answeredBy = (r.model ?? agent.model).name;
        return callModel(agent, r, ctx);
      },
    );
    const answer = await runAfter(middleware, await call(request), (m, r) => m.afterModel?.(r, hooks));
    // Object.assign onto a new object keeps one hidden class per message shape (a spread made one per reply).
    const reply: AssistantMessage = Object.assign({}, answer, {
      id: answer.id ?? eventId('msg'),
      author: agent.name,
    });
    if (reply.toolCalls?.length) offered.record(reply.id as string, request.tools);
    // Session writes of the model hooks are committed with the reply, before the agent goes on.
    const stateDelta = { ...session.writes };
    const written = Object.keys(stateDelta).length > 0;
    // Calls of long-running tools are named on the reply (ADK's long_running_tool_ids).
    const longRunning = (reply.toolCalls ?? [])
      .filter((call) => request.tools.some((t) => t.name === call.name && t.longRunning))
      .map((call) => call.id);
    await reportAgentEvent(ctx, {
      author: agent.name,
      message: reply,
      actions: written ? { stateDelta } : {},
      ...(reply.usage ? { usage: reply.usage, model: answeredBy } : {}),
      ...(longRunning.length > 0 ? { longRunningToolIds: longRunning } : {}),
    });
    return {
      messages: [...history.flatMap((h) => (Array.isArray(h) ? h : [h])), reply],
      iterations: state.iterations + 1,
      ...(written ? { stateDelta } : {}),
    };
  };
}

/** Appends the list of transfer targets to the instruction of an agent that runs in a team. */
function withTransferSection(agent: ResolvedAgent, instruction: string): string {
  if (!agent.transfer || agent.transfer.targets.length === 0) return instruction;
  const section = transferInstruction(agent.transfer.targets);
  return instruction ? `${instruction}\n\n${section}` : section;
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

/**
 * The innermost model wrapper: calls the model the middleware settled on with the tools it offered,
 * through {@link callModelInNode} (streamed when someone reads chunks, reported as a `model-call` event).
 */
function callModel(agent: ResolvedAgent, request: ModelRequest, ctx: NodeContext): Promise<AssistantMessage> {
  const { signal: _, ...callOptions } = request.options;
  const options: ChatModelCallOptions =
    request.tools.length > 0
      ? Object.assign({}, callOptions, { tools: request.tools.map((t) => t.spec) })
      : callOptions;
  return callModelInNode(ctx, {
    agent: agent.name,
    model: request.model ?? agent.model,
    messages: request.messages,
    options,
    tools: request.tools.map((t) => t.name),
  });
}
