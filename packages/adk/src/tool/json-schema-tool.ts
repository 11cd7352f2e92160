import { z } from 'zod';
import type { JsonSchema } from '../model/chat-model.js';
import type { ParsedToolArguments } from './parse-tool-arguments.js';
import { modelDescription, type Tool, validateDefinition } from './tool.js';
import type { ToolContext } from './tool-context.js';
import { runAsEffect } from './tool-effect.js';

/**
 * What {@link jsonSchemaTool} takes: a {@link ToolDefinition} whose parameters are a JSON Schema.
 *
 * @example
 * ```ts
 * const definition: JsonSchemaToolDefinition<string> = {
 *   name: 'echo',
 *   description: 'Echoes its text',
 *   parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *   execute: (args) => String(args.text),
 * };
 * ```
 */
export interface JsonSchemaToolDefinition<TResult> {
  /** What the model calls the tool by: 1–64 letters, digits, `_` or `-`. */
  readonly name: string;
  readonly description: string;
  /** A JSON Schema with `type: 'object'`, sent to the model exactly as given. */
  readonly parameters: JsonSchema;
  /** Does the work with the arguments as the model sent them (a JSON object). */
  execute(args: Record<string, unknown>, context: ToolContext): TResult | Promise<TResult>;
  readonly timeoutMs?: number;
  readonly returnDirectly?: boolean;
  readonly needsApproval?: boolean | ((args: Record<string, unknown>) => boolean);
  /** Where the tool comes from, shown with it (e.g. `mcp:filesystem` for an MCP server's tool). */
  readonly source?: string;
  readonly readOnly?: boolean;
  /** Its first result goes to the model at once; later results come as tool messages (see `tool`). */
  readonly longRunning?: boolean;
  /** Each call is an effect of its node, recorded once (see `ToolDefinition.effect` of `tool`). */
  readonly effect?: boolean;
}

const anyObject = z.record(z.string(), z.unknown());

function parseObject(name: string, text: string): ParsedToolArguments<Record<string, unknown>> {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      success: false,
      reason: 'invalid-json',
      message: `Invalid arguments for tool "${name}": not valid JSON (${detail}). Send the arguments as one JSON object.`,
    };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { success: true, args: value as Record<string, unknown> };
  }
  return {
    success: false,
    reason: 'invalid-arguments',
    message: `Invalid arguments for tool "${name}": expected one JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}.`,
  };
}

/**
 * Defines a tool whose parameters are a JSON Schema instead of a zod schema: the schema goes to the model
 * as it is (no lossy conversion), and a call's arguments are checked only to be a JSON object — whoever
 * owns the schema (an MCP server, a remote API) validates them. Use `tool()` for tools you write; this is
 * for tools described elsewhere.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` for an invalid name, an empty description, or a schema whose
 * `type` is not `'object'`.
 * @example
 * ```ts
 * const lookup = jsonSchemaTool({
 *   name: 'lookup',
 *   description: 'Looks a word up in the remote dictionary',
 *   parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
 *   execute: async (args, context) => {
 *     const response = await fetch(`https://dict.example/${String(args.word)}`, { signal: context.signal });
 *     return response.text();
 *   },
 * });
 * ```
 */
export function jsonSchemaTool<TResult>(
  definition: JsonSchemaToolDefinition<TResult>,
): Tool<Record<string, unknown>, TResult> {
  const { name, description, parameters, needsApproval } = definition;
  validateDefinition(name, description, parameters, 'a JSON Schema with type "object"');
  return {
    name,
    description,
    spec: { name, description: modelDescription(description, definition.longRunning), parameters },
    parameters: anyObject,
    timeoutMs: definition.timeoutMs,
    returnDirectly: definition.returnDirectly ?? false,
    readOnly: definition.readOnly ?? false,
    ...(definition.longRunning ? { longRunning: true } : {}),
    ...(definition.effect ? { effect: true } : {}),
    execute: definition.effect
      ? (args, context) => runAsEffect(name, context, (keyed) => definition.execute(args, keyed))
      : async (args, context) => definition.execute(args, context),
    parseArguments: (text) => parseObject(name, text),
    requiresApproval: (args) =>
      typeof needsApproval === 'function' ? needsApproval(args) : needsApproval === true,
    ...(definition.source === undefined ? {} : { source: definition.source }),
  };
}
