import { type AgentEvent, type AgentInterrupt, messageText } from '@weft/adk';

/** One tool call the agent made, with its arguments parsed (or the raw text when they were not JSON). */
export interface CapturedToolCall {
  readonly name: string;
  readonly args: unknown;
  readonly id: string;
  /** The agent that called it (teams have several). */
  readonly author: string;
}

/** Token counts summed over a turn's model calls. */
export interface CapturedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** How many model calls reported usage. */
  readonly modelCalls: number;
}

/** What one turn of an agent did, read from the Runner's events. */
export interface TurnCapture {
  /** The tool calls, in the order the agent made them. */
  readonly toolCalls: readonly CapturedToolCall[];
  /** The text of the last assistant message without tool calls ('' when there was none). */
  readonly response: string;
  /** The agent that gave the response. */
  readonly responder?: string;
  readonly usage: CapturedUsage;
  /** Set when the turn ended paused (answer it with a `resume` turn). */
  readonly interrupts?: readonly AgentInterrupt[];
  /** Set when the turn failed. */
  readonly error?: { readonly code: string; readonly message: string };
  /** Wall-clock milliseconds the turn took (data for the report, never asserted on). */
  readonly latencyMs: number;
}

/**
 * Reads a Runner event stream to its end and returns what the turn did: tool calls (arguments parsed),
 * the final response, summed usage, pauses and errors. A thrown stream error is recorded, not rethrown.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, 'It is 3.']); // or any ChatModel
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const runner = new Runner({
 *   agent: new ChatModelAgent({ name: 'calc', model, tools: [add] }),
 *   sessionService: new MemorySessionService(),
 * });
 * const turn = await captureTurn(runner.run({ userId: 'u', sessionId: 's', message: 'What is 1 + 2?' }));
 * console.log(turn.toolCalls.map((call) => call.name), turn.response);
 * ```
 */
export async function captureTurn(
  events: AsyncIterable<AgentEvent>,
  clock: () => number = Date.now,
): Promise<TurnCapture> {
  const started = clock();
  const toolCalls: CapturedToolCall[] = [];
  let response = '';
  let responder: string | undefined;
  let usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 };
  let interrupts: readonly AgentInterrupt[] | undefined;
  let error: { code: string; message: string } | undefined;
  try {
    for await (const event of events) {
      if (event.partial) continue;
      const message = event.message;
      if (message?.role === 'assistant') {
        if (message.toolCalls && message.toolCalls.length > 0) {
          for (const call of message.toolCalls)
            toolCalls.push({
              name: call.name,
              args: parseArguments(call.arguments),
              id: call.id,
              author: event.author,
            });
        } else {
          response = messageText(message);
          responder = event.author;
        }
      }
      const used = event.usage ?? (message?.role === 'assistant' ? message.usage : undefined);
      if (used)
        usage = {
          inputTokens: usage.inputTokens + used.inputTokens,
          outputTokens: usage.outputTokens + used.outputTokens,
          totalTokens: usage.totalTokens + used.totalTokens,
          modelCalls: usage.modelCalls + 1,
        };
      if (event.interrupts && event.interrupts.length > 0) interrupts = event.interrupts;
      if (event.error) error = { code: event.error.code, message: event.error.message };
    }
  } catch (thrown) {
    const e = thrown as { code?: unknown; message?: unknown };
    error = { code: typeof e.code === 'string' ? e.code : 'ERROR', message: String(e.message ?? thrown) };
  }
  return {
    toolCalls,
    response,
    ...(responder !== undefined ? { responder } : {}),
    usage,
    ...(interrupts ? { interrupts } : {}),
    ...(error ? { error } : {}),
    latencyMs: clock() - started,
  };
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
