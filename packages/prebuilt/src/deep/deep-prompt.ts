import type { MiddlewareContext } from '@weft/adk';
import type { PromptSection } from '@weft/adk/context';
import { DEEP_PROMPT, type DeepPromptLanguage, promptLanguage } from './deep-prompt-text.js';
import { formatTodos, readTodos } from './todos.js';

/** What the deep agent's prompt describes. */
export interface DeepPromptParts {
  readonly shell: boolean;
  readonly task: boolean;
  readonly largeResultsDirectory: string | undefined;
  /** The todo list and planning sections (false for a sub-agent without `write_todos`). */
  readonly todos?: boolean;
  /** Default `auto`: from the user's latest message. */
  readonly language?: DeepPromptLanguage;
}

/**
 * The deep agent's prompt sections, appended to its instruction by `promptSections` (lowest priority
 * dropped first under the budget), in English or Chinese (chosen per model call from `language`): the
 * current todo list (5), planning (4), verification (3), files (2), shell (2) and sub-agent delegation (1).
 *
 * @example
 * ```ts
 * import { promptSections } from '@weft/adk/context';
 *
 * promptSections({ budgetTokens: 4_000, sections: deepPromptSections({ shell: false, task: true, largeResultsDirectory: '/large_results' }) });
 * ```
 */
export function deepPromptSections(parts: DeepPromptParts): PromptSection[] {
  const choice = parts.language ?? 'auto';
  const text = (pick: (texts: (typeof DEEP_PROMPT)['en' | 'zh']) => string) => (ctx: MiddlewareContext) =>
    pick(DEEP_PROMPT[promptLanguage(choice, ctx)]);
  const sections: PromptSection[] = [];
  if (parts.todos ?? true)
    sections.push(
      {
        id: 'deep-todos-current',
        priority: 5,
        text: (ctx) => {
          const todos = readTodos(ctx.session);
          if (todos.length === 0) return undefined;
          return `${DEEP_PROMPT[promptLanguage(choice, ctx)].todos}\n${formatTodos(todos)}`;
        },
      },
      { id: 'deep-planning', priority: 4, text: text((t) => t.planning) },
    );
  sections.push(
    { id: 'deep-verification', priority: 3, text: text((t) => t.verification) },
    { id: 'deep-files', priority: 2, text: text((t) => t.files(parts.largeResultsDirectory)) },
  );
  if (parts.shell) sections.push({ id: 'deep-shell', priority: 2, text: text((t) => t.shell) });
  if (parts.task) sections.push({ id: 'deep-task', priority: 1, text: text((t) => t.task) });
  return sections;
}
