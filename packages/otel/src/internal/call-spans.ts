import { type Attributes, type Context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { redactedError, redactSecrets } from '@weft/compose';
import { ATTR } from './attributes.js';
import { contentString } from './content.js';
import { type ModelCall, type RequestedToolCall, type ToolResult, tokenCount } from './gen-ai.js';
import type { TraceSettings } from './trace-settings.js';

/** Where a call's span goes: under which node span, since when, at which node path and task. */
export interface CallPlace {
  readonly parent: Context;
  /** Epoch milliseconds when the node task that made the call started (the call's earliest start). */
  readonly since: number;
  readonly path: readonly string[];
  readonly taskId: string;
  /** The run's conversation (session), when its tracing was told. */
  readonly conversationId?: string | undefined;
}

/**
 * Records one model call as a `chat <model>` span (GenAI semantic conventions, kind CLIENT) under the
 * node that made it, over the call's own times (older `custom` events: from the node's start to the
 * moment the call was reported); a failed call is an error span.
 */
export function recordModelCall(settings: TraceSettings, place: CallPlace, call: ModelCall): void {
  const { response } = call;
  // The id sent to the provider names the span (backends group by it); Weft's name for the model is
  // `weft.model`, and stands in when the model does not say its id.
  const requested = call.requestModel ?? call.model;
  const attributes: Attributes = {
    [ATTR.operation]: 'chat',
    [ATTR.requestModel]: requested,
    [ATTR.model]: call.model,
    [ATTR.nodePath]: [...place.path],
    [ATTR.taskId]: place.taskId,
  };
  if (call.provider !== undefined) attributes[ATTR.providerName] = call.provider;
  if (call.responseModel !== undefined) attributes[ATTR.responseModel] = call.responseModel;
  if (place.conversationId !== undefined) attributes[ATTR.conversationId] = place.conversationId;
  if (call.agent !== undefined) attributes[ATTR.agent] = call.agent;
  if (call.tools.length > 0) attributes[ATTR.modelTools] = [...call.tools];
  const input = tokenCount(response.usage?.inputTokens);
  const output = tokenCount(response.usage?.outputTokens);
  if (input !== undefined) attributes[ATTR.inputTokens] = input;
  if (output !== undefined) attributes[ATTR.outputTokens] = output;
  if (typeof response.finishReason === 'string') attributes[ATTR.finishReasons] = [response.finishReason];
  const limit = settings.contentLimit;
  if (limit !== undefined) {
    attributes[ATTR.inputMessages] = contentString(call.messages, limit);
    attributes[ATTR.outputMessages] = contentString([response], limit);
  }
  if (call.error) attributes[ATTR.errorType] = errorTypeOf(call.error);
  const span = settings.tracer.startSpan(
    `chat ${requested}`,
    { kind: SpanKind.CLIENT, attributes, startTime: call.startedAt ?? place.since },
    place.parent,
  );
  if (call.error) {
    span.recordException(redactedError(call.error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: redactSecrets(call.error.message) });
  }
  span.end(call.endedAt);
}

/**
 * The `error.type` of an error: its `code` (Weft errors, Node's system errors), else its class — its
 * `name` when it set one, else its constructor's name.
 */
export function errorTypeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  const name = error.name !== 'Error' ? error.name : error.constructor?.name;
  return name || 'Error';
}

/**
 * Records the tool calls a node ran as `execute_tool <name>` spans under it, for tools nodes that do
 * not report `tool-start`/`tool-end` (older agents): over the node's duration, since only the node's
 * update tells of them. A result with status `error` marks its span as failed.
 */
export function recordToolCalls(
  settings: TraceSettings,
  place: CallPlace,
  results: readonly ToolResult[],
  requested: ReadonlyMap<string, RequestedToolCall>,
): void {
  const limit = settings.contentLimit;
  for (const result of results) {
    const attributes: Attributes = {
      [ATTR.operation]: 'execute_tool',
      [ATTR.toolName]: result.name,
      [ATTR.toolCallId]: result.toolCallId,
      [ATTR.toolType]: 'function',
      [ATTR.nodePath]: [...place.path],
      [ATTR.taskId]: place.taskId,
    };
    if (result.author !== undefined) attributes[ATTR.agent] = result.author;
    if (limit !== undefined) {
      const call = requested.get(result.toolCallId);
      if (call) attributes[ATTR.toolArguments] = contentString(call.arguments, limit);
      attributes[ATTR.toolResult] = contentString(result.content, limit);
    }
    const failed = result.status === 'error';
    if (failed) attributes[ATTR.errorType] = 'tool_error';
    const span = settings.tracer.startSpan(
      `execute_tool ${result.name}`,
      { kind: SpanKind.INTERNAL, attributes, startTime: place.since },
      place.parent,
    );
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: `tool "${result.name}" failed` });
    span.end();
  }
}
