import type { PromptSection } from '@weft/adk';
import { formatTodos, readTodos } from './todos.js';

/** What the deep agent's prompt describes. */
export interface DeepPromptParts {
  readonly shell: boolean;
  readonly task: boolean;
  readonly largeResultsDirectory: string | undefined;
}

/**
 * The deep agent's prompt sections, appended to its instruction by `promptSections` (lowest priority
 * dropped first under the budget): the current todo list (4), planning (3), files (2), shell (2), and
 * sub-agents (1).
 *
 * @example
 * ```ts
 * promptSections({ budgetTokens: 4_000, sections: deepPromptSections({ shell: false, task: true, largeResultsDirectory: '/large_results' }) });
 * ```
 */
export function deepPromptSections(parts: DeepPromptParts): PromptSection[] {
  const sections: PromptSection[] = [
    {
      id: 'deep-todos-current',
      priority: 4,
      text: (ctx) => {
        const todos = readTodos(ctx.session);
        return todos.length === 0 ? undefined : `## Your todo list\n${formatTodos(todos)}`;
      },
    },
    {
      id: 'deep-planning',
      priority: 3,
      text: '## Planning\nFor a task of several steps, first write a todo list with write_todos, keep exactly one item in_progress, and mark items completed as soon as they are done. Skip the list for simple questions.',
    },
    {
      id: 'deep-files',
      priority: 2,
      text: `## Files\nYou have a workspace: ls, read_file (with offset/limit), write_file, edit_file (exact text replacement), glob and grep. Paths start at "/". Read a file before editing it.${
        parts.largeResultsDirectory
          ? ` Very large tool results are saved under ${parts.largeResultsDirectory}/ — read them back with read_file.`
          : ''
      }`,
    },
  ];
  if (parts.shell)
    sections.push({
      id: 'deep-shell',
      priority: 2,
      text: '## Shell\nexecute runs a shell command in the workspace folder. Prefer the file tools for reading and editing files.',
    });
  if (parts.task)
    sections.push({
      id: 'deep-task',
      priority: 1,
      text: '## Sub-agents\nUse task to hand a self-contained piece of work to a sub-agent, which starts with a fresh context: describe the task completely. Independent tasks can run in parallel.',
    });
  return sections;
}
