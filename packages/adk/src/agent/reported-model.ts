import type { NodeContext } from '@weft/compose';
import type { AssistantMessage, Message } from '../message/message.js';
import { concatMessageChunks, type MessageChunk } from '../message/message-chunk.js';
import type { ChatModel, ChatModelCallOptions } from '../model/chat-model.js';
import { chunkBranch, streamsModel } from './agent-context.js';

/** What a node needs to report a model call on its run's event stream (and stream its tokens). */
export type ModelCallContext = Pick<
  NodeContext,
  'report' | 'chunk' | 'config' | 'path' | 'signal' | 'streaming'
>;

/**
 * One model call made inside a node: the agent it counts for, the model, the messages and the call
 * options (`signal` defaults to the node's), the tool names the request offered (default: the names of
 * `options.tools`), and whether to stream its tokens to the run (default: when someone reads them and
 * the Runner did not ask for whole replies).
 */
export interface NodeModelCall {
  readonly agent: string;
  readonly model: ChatModel;
  readonly messages: readonly Message[];
  readonly options?: ChatModelCallOptions;
  readonly tools?: readonly string[];
  readonly stream?: boolean;
}

/**
 * Calls a model from inside a graph node so that the call is part of the run: streamed token by token
 * as the agent's `chunk` events when someone reads them, and reported once it settled as a `model-call`
 * event of `agent` — which the Runner's usage totals, costs, the playground and OpenTelemetry traces all
 * read. Every model call adk and prebuilt make inside a run goes through here (the model node, output
 * repair, hand-off summaries, compaction, the host's summarizer); a node of your own that calls a model
 * should too (or hand {@link reportedModel} to code that takes a `ChatModel`).
 *
 * @throws Whatever the model throws (reported first as the event's `error`).
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['A short summary.']);
 * const graph = new StateGraph(z.object({ text: z.string() })).addNode('summarize', async (state, ctx) => {
 *   const messages = [userMessage(`Summarize: ${state.text}`)];
 *   const reply = await callModelInNode(ctx, { agent: 'summarizer', model, messages });
 *   return { text: messageText(reply) }; // the call counts in usage totals and traces
 * });
 * ```
 */
export async function callModelInNode(ctx: ModelCallContext, call: NodeModelCall): Promise<AssistantMessage> {
  const { signal: _, ...callOptions } = call.options ?? {};
  // Assigned onto a new object, not spread: each call's options keep one hidden class (ADR 025).
  const options: ChatModelCallOptions = Object.assign({}, callOptions, {
    signal: call.options?.signal ?? ctx.signal,
  });
  const streamed = call.stream ?? streamsModel(ctx);
  const startedAt = Date.now();
  let response: AssistantMessage;
  try {
    response = streamed
      ? await streamInNode(ctx, call, options)
      : await call.model.generate(call.messages, options);
  } catch (error) {
    await reportCall(ctx, call, { streamed, startedAt, error });
    throw error;
  }
  await reportCall(ctx, call, { streamed, startedAt, response });
  return response;
}

/**
 * Reports a settled call as a `model-call` event (the request's options without the signal), with the
 * model's provider and the model id it was sent to and answered from, when they are known (tracing's
 * `gen_ai.provider.name`, `gen_ai.request.model` and `gen_ai.response.model`).
 */
function reportCall(
  ctx: ModelCallContext,
  call: NodeModelCall,
  outcome: { readonly streamed: boolean; readonly startedAt: number } & (
    | { readonly response: AssistantMessage }
    | { readonly error: unknown }
  ),
): Promise<void> | undefined {
  const { signal: _, tools, ...options } = call.options ?? {};
  const { provider, modelId } = call.model;
  return ctx.report({
    type: 'model-call',
    agent: call.agent,
    model: call.model.name,
    ...(provider === undefined ? {} : { provider }),
    ...(modelId === undefined ? {} : { requestModel: modelId }),
    request: { messages: call.messages, tools: call.tools ?? (tools ?? []).map((t) => t.name), options },
    streamed: outcome.streamed,
    startedAt: outcome.startedAt,
    durationMs: Date.now() - outcome.startedAt,
    ...('response' in outcome
      ? {
          response: outcome.response,
          ...(outcome.response.usage ? { usage: outcome.response.usage } : {}),
          ...(outcome.response.modelId ? { responseModel: outcome.response.modelId } : {}),
        }
      : { error: outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error)) }),
  });
}

/** Streams a model call, forwarding each chunk to the run's stream tagged with the agent and branch. */
async function streamInNode(
  ctx: ModelCallContext,
  call: NodeModelCall,
  options: ChatModelCallOptions,
): Promise<AssistantMessage> {
  const chunks: MessageChunk[] = [];
  const tags = { agent: call.agent, ...chunkBranch(ctx) };
  for await (const chunk of call.model.stream(call.messages, options)) {
    chunks.push(chunk);
    const wait = ctx.chunk(chunk, tags);
    if (wait) await wait;
  }
  return concatMessageChunks(chunks);
}

/**
 * A model whose calls are reported on the run of the node `ctx` belongs to, counted for `agent` (see
 * {@link callModelInNode}): hand it to code that takes a `ChatModel` (a summary helper, a library) from
 * inside a node. Its `generate` calls are reported whole (not streamed to the run); its `stream` yields
 * the model's chunks to the caller and reports the call when the stream ends. It keeps the model's
 * `name`, `provider` and `modelId`.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const cheapModel = new ScriptedChatModel(['The user asked for the weather.']);
 * const graph = new StateGraph(z.object({ notes: z.string() })).addNode('note', async (state, ctx) => {
 *   const model = reportedModel(ctx, cheapModel, { agent: 'notes' });
 *   const reply = await model.generate([userMessage(state.notes)]);
 *   return { notes: messageText(reply) };
 * });
 * ```
 */
export function reportedModel(
  ctx: ModelCallContext,
  model: ChatModel,
  scope: { readonly agent: string },
): ChatModel {
  const callOf = (
    messages: readonly Message[],
    options: ChatModelCallOptions | undefined,
  ): NodeModelCall => ({
    agent: scope.agent,
    model,
    messages,
    ...(options ? { options } : {}),
  });
  return {
    name: model.name,
    ...(model.provider === undefined ? {} : { provider: model.provider }),
    ...(model.modelId === undefined ? {} : { modelId: model.modelId }),
    generate: (messages, options) => callModelInNode(ctx, { ...callOf(messages, options), stream: false }),
    stream: (messages, options) => reportedStream(ctx, callOf(messages, options)),
  };
}

async function* reportedStream(ctx: ModelCallContext, call: NodeModelCall): AsyncIterable<MessageChunk> {
  const { signal: _, ...callOptions } = call.options ?? {};
  const options: ChatModelCallOptions = { ...callOptions, signal: call.options?.signal ?? ctx.signal };
  const startedAt = Date.now();
  const chunks: MessageChunk[] = [];
  try {
    for await (const chunk of call.model.stream(call.messages, options)) {
      chunks.push(chunk);
      yield chunk;
    }
  } catch (error) {
    await reportCall(ctx, call, { streamed: true, startedAt, error });
    throw error;
  }
  await reportCall(ctx, call, { streamed: true, startedAt, response: concatMessageChunks(chunks) });
}
