import { type Message, messageText, userMessage } from '@weft/adk';
import {
  type Checkpointer,
  Command,
  type CompiledGraph,
  MemoryCheckpointer,
  type RunEvent,
} from '@weft/compose';
import type { CapturedToolCall, CapturedUsage, TurnCapture } from './capture/turn-capture.js';
import { EvaluationError } from './evaluation-error.js';
import type { EvalTarget } from './target.js';

/** Any compiled graph, whatever its input, output and node types. */
// biome-ignore lint/suspicious/noExplicitAny: graphs of every input, output and node type are evaluated alike
export type AnyGraph = CompiledGraph<any, any, string, any>;

/**
 * Options of {@link graphTarget}.
 *
 * @example
 * ```ts
 * const options: GraphTargetOptions = { inputKey: 'question', outputKey: 'answer' };
 * ```
 */
export interface GraphTargetOptions {
  /** The report's name for the target (default: the graph's name). */
  readonly name?: string;
  /** The graph's input for a user turn (default: see {@link graphTarget}). */
  readonly input?: (message: string) => unknown;
  /** The input key a user turn's text goes to (instead of finding it). */
  readonly inputKey?: string;
  /** The turn's response from the graph's output (default: see {@link graphTarget}). */
  readonly response?: (output: unknown) => string;
  /** The output key holding the response (instead of finding it). */
  readonly outputKey?: string;
  /** Makes the checkpointer of each case run (default: a new `MemoryCheckpointer`). */
  readonly checkpointer?: () => Checkpointer;
}

/** What a zod schema says of itself (zod 4's `_zod.def`), read structurally. */
interface ZodDef {
  readonly type?: string;
  readonly innerType?: unknown;
  readonly shape?: Readonly<Record<string, unknown>>;
}

function defOf(schema: unknown): ZodDef {
  return (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def ?? {};
}

/** A field's type under `optional`/`default`/`nullable` wrappers, and whether a run must give it. */
function fieldOf(schema: unknown): { type: string | undefined; required: boolean } {
  let def = defOf(schema);
  let required = true;
  while (
    def.type === 'optional' ||
    def.type === 'default' ||
    def.type === 'nullable' ||
    def.type === 'prefault'
  ) {
    if (def.type !== 'nullable') required = false;
    def = defOf(def.innerType);
  }
  return { type: def.type, required };
}

/** How a user turn's text becomes the graph's input, decided once from the graph's input schema. */
function inputMapping(graph: AnyGraph, options: GraphTargetOptions): (text: string) => unknown {
  if (options.input) return options.input;
  if (options.inputKey !== undefined) {
    const key = options.inputKey;
    return key === 'messages' ? (text) => ({ messages: [userMessage(text)] }) : (text) => ({ [key]: text });
  }
  const { inputSchema, state } = graph.spec;
  // The input schema, else the state's own schema (whose required fields a run must be given).
  const source = inputSchema ?? state?.schema;
  if (!source) return (text) => text;
  const top = defOf(source);
  if (top.type === 'string') return (text) => text;
  const fields = Object.entries(top.shape ?? {}).map(([key, field]) => ({ key, ...fieldOf(field) }));
  if (fields.some((field) => field.key === 'messages')) return (text) => ({ messages: [userMessage(text)] });
  const strings = fields.filter((field) => field.type === 'string');
  const required = strings.filter((field) => field.required).map((field) => field.key);
  const candidates = required.length > 0 ? required : strings.map((field) => field.key);
  if (candidates.length === 1) {
    const key = candidates[0] as string;
    return (text) => ({ [key]: text });
  }
  throw new EvaluationError(
    'INVALID_ARGUMENT',
    `graph "${graph.name}": cannot tell which input takes a turn's text (string inputs: ${candidates.join(', ') || 'none'}); give inputKey (weft eval --input-key) or input`,
  );
}

/** The text of the last assistant message without tool calls in a `messages` list, if any. */
function lastAnswer(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role === 'assistant' && !(message.toolCalls && message.toolCalls.length > 0))
      return messageText(message);
  }
  return undefined;
}

/** The turn's response from the graph's output. */
function responseOf(output: unknown, options: GraphTargetOptions): string {
  if (options.response) return options.response(output);
  const value =
    options.outputKey === undefined ? output : (output as Record<string, unknown>)?.[options.outputKey];
  if (typeof value === 'string') return value;
  const messages = (value as { messages?: unknown } | null)?.messages;
  if (options.outputKey === undefined && Array.isArray(messages)) {
    const answer = lastAnswer(messages as Message[]);
    if (answer !== undefined) return answer;
  }
  return value === undefined ? '' : JSON.stringify(value);
}

/** Tool calls and usage of one run, read from its events. */
function recorder() {
  const toolCalls: CapturedToolCall[] = [];
  let usage: CapturedUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 };
  const onEvent = (event: RunEvent): void => {
    if (event.type === 'tool-start') {
      toolCalls.push({
        name: event.tool,
        args: parsed(event.arguments),
        id: event.toolCallId,
        author: event.agent ?? event.node,
      });
    } else if ((event.type === 'run-end' || event.type === 'run-error') && event.usageTotals) {
      const totals = event.usageTotals.usage;
      usage = { ...totals, modelCalls: event.usageTotals.calls };
    }
  };
  return { toolCalls, usage: () => usage, onEvent };
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Runs a compiled graph as an eval target — the graph itself, no hand-written target: each case run is
 * one thread of a fresh checkpointer, a `user` turn a run with the turn's text as input, a `resume`
 * turn a `Command({ resume })`. Tool calls are read from the run's `tool-start` events (agents inside
 * the graph report them), usage from its totals, pauses from its interrupts.
 *
 * The input of a user turn, unless `input` or `inputKey` says: `{ messages: [user message] }` for a
 * graph whose input has `messages`; `{ key: text }` when the input has exactly one string field; the
 * text itself for a string input (or a graph without schemas). The case's initial `state` is merged
 * into the first input. The response, unless `response` or `outputKey` says: a string output; the
 * last assistant answer of an output's `messages`; else the output as JSON.
 *
 * @throws {EvaluationError} `INVALID_ARGUMENT` when the input cannot be told (several string fields).
 * @example
 * ```ts
 * const faq = new StateGraph(z.object({ question: z.string(), answer: z.string().optional() }))
 *   .addNode('answer', (s) => ({ answer: s.question.includes('hours') ? 'We open at 9.' : 'Ask a person.' }))
 *   .addEdge(START, 'answer')
 *   .addEdge('answer', END)
 *   .compile({ name: 'faq' });
 * const set = parseEvalSet({ name: 'faq', cases: [{ id: 'hours', turns: [{ user: 'What are your hours?', expect: { response: { contains: '9' } } }] }] });
 * const report = await runEval({ set, target: graphTarget(faq, { outputKey: 'answer' }) });
 * ```
 */
export function graphTarget(graph: AnyGraph, options: GraphTargetOptions = {}): EvalTarget {
  const toInput = inputMapping(graph, options);
  const threads = new Map<string, AnyGraph>();
  const threadGraph = (sessionId: string): AnyGraph => {
    let durable = threads.get(sessionId);
    if (!durable) {
      durable = graph.withOptions({ checkpointer: options.checkpointer?.() ?? new MemoryCheckpointer() });
      threads.set(sessionId, durable);
    }
    return durable;
  };
  return {
    name: options.name ?? graph.name,
    async runTurn(request): Promise<TurnCapture> {
      const started = Date.now();
      const seen = recorder();
      const { turn } = request;
      const base = turn.user === undefined ? undefined : toInput(turn.user);
      const input =
        turn.user === undefined
          ? new Command({ resume: turn.resume })
          : request.state && typeof base === 'object' && base !== null
            ? { ...request.state, ...base }
            : base;
      try {
        const result = await threadGraph(request.sessionId).run(input, {
          threadId: request.sessionId,
          signal: request.signal,
          callbacks: { onEvent: seen.onEvent },
        });
        const interrupts = result.interrupts.map(({ id, value, path }) => ({ id, value, path }));
        return {
          toolCalls: seen.toolCalls,
          response: result.status === 'done' ? responseOf(result.output, options) : '',
          usage: seen.usage(),
          ...(interrupts.length > 0 ? { interrupts } : {}),
          latencyMs: Date.now() - started,
        };
      } catch (thrown) {
        const error = thrown as { code?: unknown; message?: unknown };
        return {
          toolCalls: seen.toolCalls,
          response: '',
          usage: seen.usage(),
          error: {
            code: typeof error.code === 'string' ? error.code : 'ERROR',
            message: String(error.message ?? thrown),
          },
          latencyMs: Date.now() - started,
        };
      }
    },
    endSession(sessionId) {
      threads.delete(sessionId);
    },
  };
}
