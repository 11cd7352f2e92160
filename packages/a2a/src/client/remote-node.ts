import { randomUUID } from 'node:crypto';
import type { Client } from '@a2a-js/sdk/client';
import { type AssistantMessage, type Message, messageText } from '@weft/adk';
import {
  type AgentState,
  type AgentStateUpdate,
  chunkBranch,
  reportAgentEvent,
  startTurn,
  streamsModel,
} from '@weft/adk/agent-graph';
import { type NodeContext, WeftError } from '@weft/compose';
import { describeError, WeftA2aError } from '../errors/weft-a2a-error.js';
import { dataPart, textPart } from '../parts/a2a-parts.js';
import { a2aMessage, type Exchange, exchange } from './remote-exchange.js';
import { A2A_METADATA, requestFor } from './remote-request.js';

/**
 * What a remote agent's pause asks: its task needs input (or credentials) before it goes on. Answer it
 * like any Weft interrupt (`runner.resume({ decisions })`, `Command({ resume })`): a string is sent as
 * a text part, anything else as a data part (`true` for a Weft agent's tool approval).
 *
 * @example
 * ```ts
 * function ask(value: unknown): string | undefined {
 *   const pause = value as A2aInputRequired;
 *   return pause.type === 'a2a-input-required' ? `${pause.agent} asks: ${pause.question}` : undefined;
 * }
 * ```
 */
export interface A2aInputRequired {
  readonly type: 'a2a-input-required';
  /** The Weft agent (the `RemoteA2aAgent`'s name). */
  readonly agent: string;
  /** `TASK_STATE_INPUT_REQUIRED`, or `TASK_STATE_AUTH_REQUIRED` when the remote agent wants credentials. */
  readonly state: string;
  readonly taskId: string;
  readonly contextId: string;
  /** The text of the remote task's status message. */
  readonly question: string;
  /** Its data parts (a Weft server lists its own pauses there: `{ interrupts: [...] }`). */
  readonly data: readonly unknown[];
}

/** What the node needs of its agent. */
export interface RemoteNodeAgent {
  readonly name: string;
  readonly outputKey: string | undefined;
  /** Streams when the card says the agent streams, unless told not to. */
  streams(client: Client): Promise<boolean>;
  client(): Promise<Client>;
}

const waiting = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);
const failed = new Set(['TASK_STATE_FAILED', 'TASK_STATE_REJECTED', 'TASK_STATE_CANCELED']);

/**
 * The node a remote agent's graph runs: it sends the conversation since the agent's last reply to the
 * remote agent (in the remote context that reply came from), streams the reply onto the run as the
 * agent's tokens, turns `input-required` into a Weft interrupt whose answer continues the same remote
 * task (each message sent is remembered across pauses with `ctx.once`, never sent twice), cancels the
 * remote task when the run is cancelled, and adds the reply to the conversation.
 */
export function remoteNode(agent: RemoteNodeAgent) {
  return async (state: AgentState, ctx: NodeContext): Promise<AgentStateUpdate> => {
    const begin = startTurn(state);
    const added = (begin.messages ?? []) as Message[];
    const request = requestFor(agent.name, [...state.messages, ...added]);
    // A transfer that led here is spent (a chat agent's `init` clears it the same way).
    const fresh = { ...begin, finish: undefined, transferTo: undefined, activeAgent: agent.name };
    if (request.parts.length === 0) return fresh;
    const client = await agent.client();
    const streaming = await agent.streams(client);
    const send = (round: number, message: ReturnType<typeof a2aMessage>) =>
      ctx.once(`a2a-${round}`, () => call(client, message, { ctx, agent: agent.name, streaming }));
    let result = await send(
      0,
      a2aMessage(request.parts, request.contextId ? { contextId: request.contextId } : {}),
    );
    for (let round = 1; waiting.has(result.state); round++) {
      const answer = ctx.interrupt<unknown>(inputRequired(agent.name, result));
      const parts = typeof answer === 'string' ? [textPart(answer)] : [dataPart(answer)];
      result = await send(round, a2aMessage(parts, { contextId: result.contextId, taskId: result.taskId }));
    }
    if (failed.has(result.state))
      throw new WeftA2aError(
        'REMOTE_TASK_FAILED',
        `remote agent "${agent.name}": its task ${result.taskId} ended ${result.state}${result.statusText ? `: ${result.statusText}` : ''}`,
      );
    const reply: AssistantMessage = {
      role: 'assistant',
      id: `a2a-${result.taskId || randomUUID()}`,
      author: agent.name,
      content: result.content,
      providerMetadata: { [A2A_METADATA]: { contextId: result.contextId, taskId: result.taskId } },
    };
    const output = messageText(reply);
    const delta = agent.outputKey ? { [agent.outputKey]: output } : undefined;
    await reportAgentEvent(ctx, {
      author: agent.name,
      message: reply,
      actions: delta ? { stateDelta: delta } : {},
    });
    return {
      ...fresh,
      messages: [...added, reply],
      output,
      ...(delta ? { stateDelta: { ...begin.stateDelta, ...delta } } : {}),
    };
  };
}

function inputRequired(agent: string, result: Exchange): A2aInputRequired {
  return {
    type: 'a2a-input-required',
    agent,
    state: result.state,
    taskId: result.taskId,
    contextId: result.contextId,
    question: result.statusText,
    data: result.statusData,
  };
}

/**
 * One exchange with the remote agent. When the run is cancelled, the remote task is cancelled too: at
 * once when its id is known, else as soon as the remote agent names it (within 10 s), and only then is
 * the request itself dropped.
 */
async function call(
  client: Client,
  message: ReturnType<typeof a2aMessage>,
  scope: { readonly ctx: NodeContext; readonly agent: string; readonly streaming: boolean },
): Promise<Exchange> {
  const { ctx, agent } = scope;
  const local = new AbortController();
  let taskId = message.taskId;
  let named: (id: string) => void = () => {};
  const known = new Promise<string>((resolve) => {
    named = resolve;
  });
  const onAbort = (): void => {
    void (async () => {
      const id = taskId || (await Promise.race([known, sleep(10_000).then(() => '')]));
      local.abort(ctx.signal.reason);
      if (id)
        await client
          .cancelTask({ tenant: '', id, metadata: {} }, { signal: AbortSignal.timeout(10_000) })
          .catch(() => undefined);
    })();
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await exchange(client, message, {
      signal: local.signal,
      streaming: scope.streaming,
      task: (id) => {
        taskId = id;
        named(id);
      },
      chunk: (text) =>
        streamsModel(ctx) && !ctx.signal.aborted
          ? ctx.chunk({ text }, { agent, ...chunkBranch(ctx) })
          : undefined,
      status: (state, text) =>
        ctx.signal.aborted
          ? undefined
          : reportAgentEvent(ctx, {
              author: agent,
              custom: { type: 'a2a-status', data: { state, text } },
              actions: {},
            }),
    });
  } catch (error) {
    if (ctx.signal.aborted)
      throw ctx.signal.reason ?? new WeftError('ABORTED', `remote agent "${agent}" was cancelled`);
    if (WeftA2aError.isInstance(error)) throw error;
    throw new WeftA2aError('REQUEST_FAILED', `remote agent "${agent}": ${describeError(error)}`, {
      cause: error,
    });
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
