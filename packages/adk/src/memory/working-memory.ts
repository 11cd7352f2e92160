import { z } from 'zod';
import type { AgentMiddleware, MiddlewareContext } from '../agent/middleware.js';
import { AdkError } from '../errors/adk-error.js';
import type { Message } from '../message/message.js';
import { systemMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import type { SessionState } from '../tool/session-state.js';
import { type AnyTool, tool } from '../tool/tool.js';

/**
 * Options of {@link workingMemory}.
 *
 * @example
 * ```ts
 * const profile = z.object({ name: z.string(), diet: z.string() }).partial();
 * const options: WorkingMemoryOptions<typeof profile> = { schema: profile, key: 'user:profile' };
 * ```
 */
export interface WorkingMemoryOptions<TSchema extends z.ZodObject> {
  /** The note's shape; every update must leave a note this schema accepts. */
  readonly schema: TSchema;
  /** Session state key of the note (default `user:working_memory`: one note per user of the app). */
  readonly key?: string;
  /** The update tool's name (default `update_working_memory`). */
  readonly toolName?: string;
  /** The text above the note in the instruction. */
  readonly heading?: string;
}

/** The working-memory middleware, with its tool and a reader of the note. */
export interface WorkingMemory<TSchema extends z.ZodObject> extends AgentMiddleware {
  /** The update tool (the middleware offers it on every model call; add it to an agent's tools to run it elsewhere). */
  readonly tool: AnyTool;
  /** The note in a session state (`{}` when none was written yet). */
  read(state: Pick<SessionState, 'get'>): Partial<z.output<TSchema>>;
}

const DEFAULT_HEADING =
  'Your working memory about this user (keep it current: when you learn something that belongs in it, call {tool} with just the fields that change; null clears a field):';

/**
 * Working memory (Mastra's): a structured note about the user, shaped by a zod object schema, kept in
 * session state (`user:` scope by default, so every session of the user shares it), shown in the
 * instruction of every model call, and updated by the model through a tool whose arguments are the
 * fields that change (merged into the note; `null` clears a field). An update that would leave a note
 * the schema rejects fails the call with the schema's message, and the note stays as it was. The update
 * is a session-state write: committed with the tool's event like any `stateDelta`.
 *
 * @throws AdkError `INVALID_ARGUMENT` when `schema` is not a zod object schema.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const profile = workingMemory({
 *   schema: z.object({ name: z.string(), diet: z.enum(['vegan', 'vegetarian', 'any']), allergies: z.array(z.string()) }).partial(),
 * });
 * const agent = new ChatModelAgent({ name: 'chef', model, middleware: [profile] });
 * ```
 */
export function workingMemory<TSchema extends z.ZodObject>(
  options: WorkingMemoryOptions<TSchema>,
): WorkingMemory<TSchema> {
  if (!(options.schema instanceof z.ZodObject)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      'workingMemory: schema must be a zod object schema (z.object({...}))',
    );
  }
  const key = options.key ?? 'user:working_memory';
  const toolName = options.toolName ?? 'update_working_memory';
  // The note was checked against the schema when the tool wrote it (an app may also seed it by hand).
  const read = (state: Pick<SessionState, 'get'>) => noteOf(state.get(key)) as Partial<z.output<TSchema>>;
  const update = updateTool(options.schema, key, toolName);
  const heading = (options.heading ?? DEFAULT_HEADING).replaceAll('{tool}', toolName);
  return {
    name: 'workingMemory',
    tool: update,
    read,
    beforeModel(request, ctx: MiddlewareContext) {
      const section = `${heading}\n<working_memory>\n${JSON.stringify(read(ctx.session), null, 2)}\n</working_memory>`;
      const tools = request.tools.some((t) => t.name === toolName)
        ? request.tools
        : [...request.tools, update];
      return { ...request, tools, messages: withSection(request.messages, section) };
    },
  };
}

function updateTool(schema: z.ZodObject, key: string, name: string): AnyTool {
  const fields = Object.fromEntries(
    Object.entries(schema.shape).map(([field, type]) => [field, (type as z.ZodType).nullable().optional()]),
  );
  return tool({
    name,
    description:
      'Updates your working memory about the user: pass only the fields that change (null clears one).',
    parameters: z.object(fields),
    execute(changes, context) {
      const next: Record<string, unknown> = { ...noteOf(context.state.get(key)) };
      for (const [field, value] of Object.entries(changes)) {
        if (value === null) delete next[field];
        else if (value !== undefined) next[field] = value;
      }
      const parsed = schema.safeParse(next);
      if (!parsed.success) {
        throw new AdkError(
          'INVALID_ARGUMENT',
          `the working memory would not match its schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(note)'}: ${i.message}`).join('; ')}`,
        );
      }
      context.state.set(key, parsed.data);
      return { workingMemory: parsed.data };
    },
  }) as unknown as AnyTool;
}

function noteOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};
}

function withSection(messages: readonly Message[], section: string): Message[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [systemMessage(`${messageText(first)}\n\n${section}`), ...rest];
  return [systemMessage(section), ...messages];
}
