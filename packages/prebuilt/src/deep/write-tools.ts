import { type AnyTool, tool } from '@weft/adk';
import { z } from 'zod';
import type { Backend } from './backend/backend.js';
import { normalizePath } from './backend/virtual-path.js';

/** Tools of {@link writeTools} that may require a person's approval. */
export interface WriteToolsOptions {
  /** Ask for approval before `write_file` runs. */
  readonly approveWrites?: boolean;
  /** Ask for approval before `edit_file` runs. */
  readonly approveEdits?: boolean;
  /**
   * `write_file` and `edit_file` refuse to produce a file longer than this many characters (default
   * 10 000 000, the size a `LocalBackend` reads): an edit with `replace_all` cannot grow a file past it.
   */
  readonly maxFileChars?: number;
}

/**
 * Counts the non-overlapping occurrences of `needle` in `text`.
 *
 * @example
 * ```ts
 * countOccurrences('a-a-a', 'a'); // 3
 * ```
 */
export function countOccurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * `write_file` (create or replace a file) and `edit_file` (replace an exact text: it fails, saying why,
 * when the text is missing or occurs more than once without `replace_all`).
 *
 * @example
 * ```ts
 * const [write, edit] = writeTools(new MemoryBackend(), { approveWrites: true });
 * ```
 */
export function writeTools(backend: Backend, options: WriteToolsOptions = {}): AnyTool[] {
  const maxChars = options.maxFileChars ?? 10_000_000;
  const write = tool({
    name: 'write_file',
    description: 'Create a file, or replace its whole content. Parent folders are created as needed.',
    parameters: z.object({
      path: z.string().describe('Path of the file, e.g. /notes/plan.md'),
      content: z.string().describe('The complete new content'),
    }),
    needsApproval: options.approveWrites ?? false,
    execute: async ({ path, content }, { signal }) => {
      if (content.length > maxChars)
        throw new Error(
          `content has ${content.length} characters, more than the ${maxChars} a file may hold; write it in smaller files`,
        );
      await backend.write(path, content, { signal });
      return `Wrote ${content.length} characters to ${normalizePath(path)}`;
    },
  });
  const edit = tool({
    name: 'edit_file',
    description:
      'Replace an exact piece of text in a file. old_string must occur exactly once (include surrounding lines to make it unique), or set replace_all.',
    parameters: z.object({
      path: z.string(),
      old_string: z.string().min(1).describe('Exact text to replace, whitespace included'),
      new_string: z.string().describe('The replacement'),
      replace_all: z.boolean().default(false).describe('Replace every occurrence'),
    }),
    needsApproval: options.approveEdits ?? false,
    execute: async ({ path, old_string, new_string, replace_all }, { signal }) => {
      const file = normalizePath(path);
      const content = await backend.read(file, { signal });
      const count = countOccurrences(content, old_string);
      if (count === 0)
        throw new Error(
          `old_string was not found in ${file}; read the file and copy the exact text, whitespace included`,
        );
      if (count > 1 && !replace_all)
        throw new Error(
          `old_string occurs ${count} times in ${file}; include more surrounding text to make it unique, or set replace_all`,
        );
      // The new length is known before anything is built: an edit that would grow the file past the cap
      // is refused instead of filling memory (`replace_all` of one character by a long text).
      const length = content.length + count * (new_string.length - old_string.length);
      if (length > maxChars)
        throw new Error(
          `the edit would make ${file} ${length} characters long, more than the ${maxChars} a file may hold`,
        );
      // A replacer function: `$&` and the like in new_string are text, not patterns.
      await backend.write(
        file,
        content.replaceAll(old_string, () => new_string),
        { signal },
      );
      return `Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${file}`;
    },
  });
  return [write, edit];
}
