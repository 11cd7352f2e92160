import type { Json } from '../../../src/shared/wire.ts';

/** A chat message as it arrives in state (`Message` made JSON). */
export interface MessageJson {
  readonly role?: string;
  readonly content?: Json;
  readonly author?: string;
  readonly name?: string;
  readonly usage?: UsageJson;
  readonly toolCalls?: ReadonlyArray<{
    readonly id?: string;
    readonly name?: string;
    readonly arguments?: string;
  }>;
  readonly toolCallId?: string;
}

/** Token counts of one model call, or a sum of calls. */
export interface UsageJson {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/** One row of a conversation: a message with the agent that wrote it, or a hand-off between agents. */
export type ConversationItem =
  | { readonly kind: 'message'; readonly message: MessageJson; readonly agent: string | undefined }
  | { readonly kind: 'transfer'; readonly from: string; readonly to: string };

const transferTools = new Set(['transfer_to_agent', 'transfer_back']);

/** Where a transfer tool's result says the conversation went (`{ transferred_to: 'researcher' }`). */
function transferTarget(message: MessageJson): string | undefined {
  if (message.role !== 'tool') return undefined;
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  for (const part of parts) {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) continue;
    const value = part.type === 'json' ? part.value : part;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const to = value.transferred_to ?? value.transferredTo;
      if (typeof to === 'string') return to;
    }
  }
  if (message.name !== undefined && transferTools.has(message.name) && typeof message.content === 'string')
    return /(?:to|→)\s*"?([\w-]+)"?/.exec(message.content)?.[1];
  return undefined;
}

/**
 * A multi-agent conversation as rows: every message labelled with its agent (`author`), and each
 * transfer tool's result turned into a hand-off row `from → to` instead of its raw JSON.
 *
 * @example
 * ```ts
 * conversationOf(state.messages); // [{ kind: 'message', agent: 'supervisor', … }, { kind: 'transfer', from: 'supervisor', to: 'researcher' }, …]
 * ```
 */
export function conversationOf(messages: readonly MessageJson[]): ConversationItem[] {
  return messages.map((message) => {
    const to = transferTarget(message);
    if (to !== undefined) return { kind: 'transfer', from: message.author ?? 'agent', to };
    return { kind: 'message', message, agent: message.author };
  });
}

/** Whether a tool call hands the conversation to another agent (shown as `→ name`, not as JSON). */
export function transferCallTarget(call: { name?: string; arguments?: string }): string | undefined {
  if (call.name === undefined || !transferTools.has(call.name)) return undefined;
  try {
    const args = JSON.parse(call.arguments ?? '{}') as { agent_name?: unknown; agentName?: unknown };
    const to = args.agent_name ?? args.agentName;
    return typeof to === 'string' ? to : call.name === 'transfer_back' ? 'the agent that called' : undefined;
  } catch {
    return undefined;
  }
}

/** Token usage of a conversation: per model call (each assistant message), per agent, in all. */
export interface UsageSummary {
  readonly total: UsageJson;
  /** Per agent, in the order each first spoke. */
  readonly byAgent: ReadonlyArray<{
    readonly agent: string;
    readonly usage: UsageJson;
    readonly calls: number;
  }>;
  readonly calls: number;
}

const zero: UsageJson = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

function add(a: UsageJson, b: UsageJson): UsageJson {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + (b.totalTokens || b.inputTokens + b.outputTokens),
  };
}

/**
 * Sums the usage the model reported on each assistant message, per agent and overall.
 *
 * @example
 * ```ts
 * usageOf(messages).byAgent; // [{ agent: 'supervisor', usage: { inputTokens: 608, … }, calls: 3 }, …]
 * ```
 */
export function usageOf(messages: readonly MessageJson[]): UsageSummary {
  const byAgent = new Map<string, { usage: UsageJson; calls: number }>();
  let total = zero;
  let calls = 0;
  for (const message of messages) {
    if (message.role !== 'assistant' || message.usage === undefined) continue;
    const agent = message.author ?? 'agent';
    const entry = byAgent.get(agent) ?? { usage: zero, calls: 0 };
    byAgent.set(agent, { usage: add(entry.usage, message.usage), calls: entry.calls + 1 });
    total = add(total, message.usage);
    calls += 1;
  }
  return { total, calls, byAgent: [...byAgent].map(([agent, entry]) => ({ agent, ...entry })) };
}

/** `1,234 tokens (1,000 in · 234 out)`. */
export function formatUsage(usage: UsageJson): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return `${n(usage.totalTokens)} tokens (${n(usage.inputTokens)} in · ${n(usage.outputTokens)} out)`;
}
