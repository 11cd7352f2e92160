import { z } from 'zod';
import { AdkError } from '../errors/adk-error.js';
import type { JsonSchema, ToolSpec } from '../model/chat-model.js';
import { type ParsedToolArguments, parseToolArguments } from './parse-tool-arguments.js';
import type { ToolContext } from './tool-context.js';
import { runAsEffect } from './tool-effect.js';

/**
 * The zod schemas a tool's parameters may use: schemas of JSON objects.
 *
 * @example
 * ```ts
 * const parameters: ToolParameters = z.object({ city: z.string() });
 * ```
 */
export type ToolParameters = z.ZodType<Record<string, unknown>>;

/**
 * What {@link tool} takes.
 *
 * @example
 * ```ts
 * const parameters = z.object({ a: z.number(), b: z.number() });
 * const definition: ToolDefinition<typeof parameters, number> = {
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters,
 *   execute: ({ a, b }) => a + b,
 * };
 * ```
 */
export interface ToolDefinition<TParameters extends ToolParameters, TResult> {
  /** What the model calls the tool by: 1–64 letters, digits, `_` or `-`. */
  readonly name: string;
  /** What the tool does and when to use it, for the model. */
  readonly description: string;
  /** A zod object schema; the model gets its JSON Schema and calls are validated against it. */
  readonly parameters: TParameters;
  /** Does the work; a string result is sent as text, anything else as JSON. */
  execute(args: z.output<TParameters>, context: ToolContext): TResult | Promise<TResult>;
  /** Fails the call with a timeout after this many milliseconds (overrides `executeToolCalls`' `timeoutMs`). */
  readonly timeoutMs?: number;
  /** The agent ends with this tool's result instead of calling the model again. */
  readonly returnDirectly?: boolean;
  /** A person must approve the call first: always, or depending on the arguments. */
  readonly needsApproval?: boolean | ((args: z.output<TParameters>) => boolean);
  /** The tool changes nothing, so it may be offered in read-only phases. */
  readonly readOnly?: boolean;
  /**
   * Google ADK's `LongRunningFunctionTool`: the tool's result is a first status (its work goes on
   * elsewhere) that goes to the model at once — a `pending(id, info)` result as `{ status: 'pending',
   * pendingId, info }` — and the turn goes on; the client later sends progress and the final result as
   * tool messages (`runner.run({ message: toolMessage(result, { toolCallId, name }) })`), each a turn the
   * model answers. The model is told not to call it again while it is pending. Without it, a
   * `pending(...)` result pauses the turn until the result is delivered.
   */
  readonly longRunning?: boolean;
  /**
   * The tool has a side effect that must happen once (a payment, an email, a ticket): inside a graph
   * each call runs as `ctx.effect` of its node, keyed by the tool call's id, so its result is recorded
   * the moment it returns and a re-run of the node (after a crash, a retry, a lost lease, a resume, a
   * replay) gets that result instead of calling again; `context.idempotencyKey` is the key to hand to
   * the API it calls. The result must be serializable. Outside a graph nothing is recorded and the key
   * is derived from the call's id alone. See the docs' "Guarantees".
   */
  readonly effect?: boolean;
}

/**
 * A tool the model can call, made by {@link tool}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const add: Tool<{ a: number; b: number }, number> = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }]);
 * const reply = await model.generate([userMessage('What is 1 + 2?')], { tools: [add.spec] });
 * const results = await executeToolCalls(reply.toolCalls ?? [], [add]); // one tool message: "3"
 * ```
 */
export interface Tool<TArgs extends Record<string, unknown> = Record<string, unknown>, TResult = unknown> {
  readonly name: string;
  readonly description: string;
  /** What the model is told: name, description, and the parameters' JSON Schema. */
  readonly spec: ToolSpec;
  /** The zod schema of the arguments. */
  readonly parameters: z.ZodType<TArgs>;
  readonly timeoutMs: number | undefined;
  readonly returnDirectly: boolean;
  readonly readOnly: boolean;
  /** Its first result goes to the model at once; later results come as tool messages (see `tool`). */
  readonly longRunning?: boolean;
  /** Each call is an effect of its node, recorded once (see `ToolDefinition.effect`). */
  readonly effect?: boolean;
  /** Runs the tool with already validated arguments. */
  execute(args: TArgs, context: ToolContext): Promise<TResult>;
  /** Parses a tool call's JSON arguments and validates them against the schema. */
  parseArguments(text: string): ParsedToolArguments<TArgs>;
  /** Whether a person must approve this call (evaluates `needsApproval`). */
  requiresApproval(args: TArgs): boolean;
  /** Where the tool comes from, for people reading a trace or the playground (`mcp:<server>`). */
  readonly source?: string;
}

/**
 * A tool of any argument and result types, for lists of tools.
 *
 * @example
 * ```ts
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const search = tool({
 *   name: 'search',
 *   description: 'Searches the docs',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => [`${query}.md`],
 * });
 * const tools: AnyTool[] = [add, search];
 * ```
 */
export type AnyTool = Tool<Record<string, unknown>, unknown>;

const toolName = /^[a-zA-Z0-9_-]{1,64}$/;

/** What a long-running tool's description tells the model (as Google ADK's does). */
export const LONG_RUNNING_NOTE =
  'This tool is a long-running operation: its first result may be a pending or intermediate status, and later results arrive on their own. Do not call it again for the same request while it is pending.';

/**
 * The description a model reads for a tool: a long-running tool's description ends with
 * {@link LONG_RUNNING_NOTE}.
 *
 * @example
 * ```ts
 * modelDescription('Renders a video', true); // 'Renders a video\n\nThis tool is a long-running operation: …'
 * ```
 */
export function modelDescription(description: string, longRunning: boolean | undefined): string {
  return longRunning ? `${description}\n\n${LONG_RUNNING_NOTE}` : description;
}

/**
 * Converts a zod schema into the JSON Schema sent to models (the input side of the schema, without
 * `$schema`).
 *
 * @throws {AdkError} `INVALID_ARGUMENT` when the schema has types JSON Schema cannot express.
 * @example
 * ```ts
 * const schema = zodToJsonSchema(z.object({ city: z.string() }));
 * // { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }
 * ```
 */
export function zodToJsonSchema(schema: z.ZodType): JsonSchema {
  try {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', target: 'draft-07' });
    return rest;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new AdkError('INVALID_ARGUMENT', `the schema cannot be converted to JSON Schema: ${detail}`, {
      cause: error,
    });
  }
}

/** Checks a tool's name, description and parameters' schema (shared by `tool` and `jsonSchemaTool`). */
export function validateDefinition(
  name: string,
  description: string,
  parameters: JsonSchema,
  expected = 'a zod object schema (z.object({...}))',
): void {
  if (!toolName.test(name)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `tool name "${name}" is invalid: use 1-64 letters, digits, "_" or "-" (e.g. "get_weather")`,
    );
  }
  if (description.trim() === '') {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `tool "${name}" needs a description: the model reads it to choose tools`,
    );
  }
  if (parameters.type !== 'object') {
    throw new AdkError('INVALID_ARGUMENT', `tool "${name}": parameters must be ${expected}`);
  }
}

/**
 * Defines a tool: its arguments are described by a zod object schema, from which the model's JSON
 * Schema is generated and against which every call is validated.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` for an invalid name, an empty description, or parameters that
 * are not an object schema.
 * @example
 * ```ts
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * ```
 */
export function tool<TParameters extends ToolParameters, TResult>(
  definition: ToolDefinition<TParameters, TResult>,
): Tool<z.output<TParameters>, TResult> {
  const { name, description, needsApproval } = definition;
  // A schema's parse result is its output type; tsc cannot see that through a generic TParameters.
  const parameters = definition.parameters as unknown as z.ZodType<z.output<TParameters>>;
  const jsonSchema = zodToJsonSchema(parameters);
  validateDefinition(name, description, jsonSchema);
  return {
    name,
    description,
    spec: {
      name,
      description: modelDescription(description, definition.longRunning),
      parameters: jsonSchema,
    },
    parameters,
    timeoutMs: definition.timeoutMs,
    returnDirectly: definition.returnDirectly ?? false,
    readOnly: definition.readOnly ?? false,
    ...(definition.longRunning ? { longRunning: true } : {}),
    ...(definition.effect ? { effect: true } : {}),
    execute: definition.effect
      ? (args, context) => runAsEffect(name, context, (keyed) => definition.execute(args, keyed))
      : async (args, context) => definition.execute(args, context),
    parseArguments: (text) => parseToolArguments(name, parameters, text),
    requiresApproval: (args) =>
      typeof needsApproval === 'function' ? needsApproval(args) : needsApproval === true,
  };
}
