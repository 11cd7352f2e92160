import { END, type NodeContext, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
import { eventId } from '../internal/event-id.js';
import type { JsonValue, ToolCall, ToolMessage } from '../message/message.js';
import {
  deliveredMessage,
  type PendingToolResult,
  pendingOf,
  type ToolPendingRequest,
} from '../tool/pending-result.js';

const waitState = z.object({ request: z.unknown(), result: z.unknown().optional() });

/**
 * The graph a pending call waits in, nested under the tool node (one run per call, keyed by its id):
 * its one node asks for the call's result with an interrupt. Each pending call thus pauses in its own
 * nested run, so every pending call of a step is announced together (one interrupt each) and each is
 * answered on its own, in any order — a run that got its answer returns it, the others pause again.
 */
function buildWaitGraph() {
  return new StateGraph(waitState)
    .addNode('wait', (state, ctx) => ({ result: ctx.interrupt(state.request) }))
    .addEdge(START, 'wait')
    .addEdge('wait', END)
    .compile({ name: 'pending' });
}

let waitGraph: ReturnType<typeof buildWaitGraph> | undefined;

/**
 * The interrupt a pending call of a tool that is not long-running pauses the run with.
 *
 * @example
 * ```ts
 * const call = { id: 'call_1', name: 'render_video', arguments: '{}' };
 * pendingRequest(call, pending('job-42'), 'studio'); // { type: 'tool-pending', agent: 'studio', tool: 'render_video', … }
 * ```
 */
export function pendingRequest(
  call: ToolCall,
  waiting: PendingToolResult,
  author: string,
): ToolPendingRequest {
  return {
    type: 'tool-pending',
    agent: author,
    tool: call.name,
    toolCallId: call.id,
    pendingId: waiting.id,
    ...(waiting.info === undefined ? {} : { info: waiting.info }),
  };
}

/**
 * Waits for a pending call's result in its own nested run: resolves with the tool message delivering
 * it once answered (keeping the pending message's id), or rejects with the nested run's pause (let it
 * out of the node: the node pauses with every pause of the step).
 *
 * @example
 * ```ts
 * const node = async (state: { messages: Message[] }, ctx: NodeContext) => {
 *   const call = { id: 'call_1', name: 'render_video', arguments: '{}' };
 *   const request = pendingRequest(call, pending('job-42'), 'studio');
 *   const message = await awaitPendingCall(ctx, { call, request, id: 'msg-1' }); // pauses until resumed
 *   return { messages: [message] };
 * };
 * ```
 */
export async function awaitPendingCall(
  ctx: Pick<NodeContext, 'runSubgraph'>,
  waiting: { readonly call: ToolCall; readonly request: ToolPendingRequest; readonly id: string | undefined },
): Promise<ToolMessage> {
  const { call, request } = waiting;
  waitGraph ??= buildWaitGraph();
  const state = await ctx.runSubgraph(waitGraph, { request }, { key: `pending:${call.id}` });
  const delivered = deliveredMessage(call, state.result, request.agent);
  return { ...delivered, id: waiting.id ?? eventId('msg') };
}

/**
 * A long-running tool's `pending(id, info)` result as the model reads it: `{ status: 'pending',
 * pendingId, info }`. Any other result is returned as it is.
 *
 * @example
 * ```ts
 * const message = toolMessage([{ type: 'json', value: { __weft_pending__: true, id: 'job-42' } }], {
 *   toolCallId: 'call_1',
 *   name: 'render_video',
 * });
 * pendingStatus(message); // content: [{ type: 'json', value: { status: 'pending', pendingId: 'job-42' } }]
 * ```
 */
export function pendingStatus(message: ToolMessage): ToolMessage {
  const waiting = pendingOf(message);
  if (!waiting) return message;
  // `info` came out of the message's JSON part, so it is JSON; the cast only names it.
  const info = waiting.info as JsonValue | undefined;
  const status = { status: 'pending', pendingId: waiting.id, ...(info === undefined ? {} : { info }) };
  return { ...message, content: [{ type: 'json', value: status }] };
}
