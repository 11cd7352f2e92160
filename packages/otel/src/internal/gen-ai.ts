import type { ModelCallEvent } from '@weft/compose';

/**
 * Model and tool calls as the event stream carries them, read structurally (no dependency on
 * `@weft/adk`): the agent's model node reports a typed `model-call` event (older versions emitted a
 * `custom` event `{ type: 'model-call', agent, model,
 * messages, tools, response }` after each call, and a tools node's update holds one `tool` message per
 * call it ran (`toolCallId`, `name`, `status`).
 */

/** A tool call the model asked for. */
export interface RequestedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One model call: who called which model with what, and what came back. */
export interface ModelCall {
  readonly agent: string | undefined;
  /** Weft's name for the model (`openai:gpt-4o-mini`). */
  readonly model: string;
  /** The provider and the model ids asked for and answering, when the event says. */
  readonly provider?: string | undefined;
  readonly requestModel?: string | undefined;
  readonly responseModel?: string | undefined;
  readonly messages: unknown;
  readonly tools: readonly string[];
  /** When the call started and settled (epoch ms), when the event says (the typed `model-call` does). */
  readonly startedAt?: number;
  readonly endedAt?: number;
  /** Why the call failed. */
  readonly error?: Error;
  readonly response: {
    readonly toolCalls?: readonly RequestedToolCall[];
    readonly usage?: { readonly inputTokens?: unknown; readonly outputTokens?: unknown };
    readonly finishReason?: unknown;
  };
}

/** One tool call's result as a tools node wrote it. */
export interface ToolResult {
  readonly toolCallId: string;
  readonly name: string;
  readonly status: string | undefined;
  readonly content: unknown;
  readonly author: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The model call a `model-call` event reports. */
export function modelCallOf(event: ModelCallEvent): ModelCall {
  const response = isRecord(event.response) ? (event.response as ModelCall['response']) : {};
  return {
    agent: event.agent,
    model: event.model,
    provider: event.provider,
    requestModel: event.requestModel,
    responseModel: event.responseModel,
    messages: event.request.messages,
    tools: event.request.tools,
    startedAt: event.startedAt,
    endedAt: event.startedAt + event.durationMs,
    ...(event.error ? { error: event.error } : {}),
    response: event.usage && !response.usage ? { ...response, usage: event.usage } : response,
  };
}

/** The model call a `custom` event's data describes, or `undefined` for any other custom data. */
export function readModelCall(data: unknown): ModelCall | undefined {
  if (!isRecord(data) || data.type !== 'model-call' || typeof data.model !== 'string') return undefined;
  const response = isRecord(data.response) ? (data.response as ModelCall['response']) : {};
  return {
    agent: typeof data.agent === 'string' ? data.agent : undefined,
    model: data.model,
    messages: data.messages,
    tools: Array.isArray(data.tools) ? data.tools.filter((t): t is string => typeof t === 'string') : [],
    response,
  };
}

/** The tool results in a node's update (`{ messages: [...] }` with `tool` messages), in call order. */
export function readToolResults(output: unknown): ToolResult[] {
  if (!isRecord(output) || !Array.isArray(output.messages)) return [];
  const results: ToolResult[] = [];
  for (const message of output.messages) {
    if (!isRecord(message) || message.role !== 'tool') continue;
    if (typeof message.toolCallId !== 'string' || typeof message.name !== 'string') continue;
    results.push({
      toolCallId: message.toolCallId,
      name: message.name,
      status: typeof message.status === 'string' ? message.status : undefined,
      content: message.content,
      author: typeof message.author === 'string' ? message.author : undefined,
    });
  }
  return results;
}

/** A token count, when the provider reported one. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
