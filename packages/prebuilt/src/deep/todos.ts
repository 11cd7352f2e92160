import { type AnyTool, tool } from '@weft/adk';
import { z } from 'zod';

/** The session state key that holds a deep agent's todo list. */
export const TODOS_KEY = 'todos';

/** The schema of one todo item. */
export const todoSchema = z.object({
  content: z.string().min(1).describe('What to do, as a short imperative sentence'),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

/**
 * One item of a todo list.
 *
 * @example
 * ```ts
 * const todo: Todo = { content: 'Read the spec', status: 'in_progress' };
 * ```
 */
export type Todo = z.infer<typeof todoSchema>;

/**
 * Reads the todo list from session state (an empty list when there is none or it is malformed).
 *
 * @example
 * ```ts
 * const session = { state: { [TODOS_KEY]: [{ content: 'Draft the report', status: 'in_progress' }] } };
 * const todos = readTodos(new Map(Object.entries(session.state))); // [{ content: 'Draft the report', status: 'in_progress' }]
 * readTodos(new Map()); // []
 * ```
 */
export function readTodos(state: { get(key: string): unknown }): Todo[] {
  const parsed = z.array(todoSchema).safeParse(state.get(TODOS_KEY));
  return parsed.success ? parsed.data : [];
}

/**
 * Renders a todo list as checkbox lines (`[x]` completed, `[~]` in progress, `[ ]` pending).
 *
 * @example
 * ```ts
 * formatTodos([{ content: 'Plan', status: 'completed' }]); // '[x] Plan'
 * ```
 */
export function formatTodos(todos: readonly Todo[]): string {
  const mark = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;
  return todos.map((todo) => `${mark[todo.status]} ${todo.content}`).join('\n');
}

/**
 * `write_todos`: replaces the agent's todo list, stored in session state under {@link TODOS_KEY} — so
 * each update is committed in the `stateDelta` of the tool step's events (on its last tool result) and survives
 * across turns. Marked `readOnly`: it changes only the agent's own plan, so it is offered in thinking
 * phases too.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const agent = new ChatModelAgent({ name: 'planner', model, tools: [writeTodosTool()] });
 * // each write_todos call replaces the list in session state under TODOS_KEY
 * ```
 */
export function writeTodosTool(): AnyTool {
  return tool({
    name: 'write_todos',
    description:
      'Replace your todo list for a multi-step task: send every item with its status (pending, in_progress, completed). Keep one item in_progress; mark items completed as soon as they are done.',
    parameters: z.object({ todos: z.array(todoSchema).describe('The whole updated list') }),
    readOnly: true,
    execute: ({ todos }, ctx) => {
      ctx.state.set(TODOS_KEY, todos);
      return todos.length === 0 ? 'Todo list cleared.' : `Todo list updated:\n${formatTodos(todos)}`;
    },
  });
}
