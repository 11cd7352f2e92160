import { type AnyTool, tool } from '@weft/adk';
import { z } from 'zod';
import type { Backend, BackendCallOptions } from './backend/backend.js';
import { normalizePath } from './backend/virtual-path.js';
import { globToRegExp } from './glob-pattern.js';
import { countLines, eachLine } from './text-lines.js';

/** Output limits of the reading tools. */
export interface ReadToolLimits {
  /** `read_file` returns at most this many characters per call (default 20 000). */
  readonly maxReadChars?: number;
  /** `glob` and `grep` list at most this many results (default 200). */
  readonly maxResults?: number;
}

/**
 * `read_file`: a file's lines numbered from 1 (`cat -n` style), from line `offset` (0-based) for
 * `limit` lines, each cut to 2000 characters, at most `maxReadChars` per call — with a note saying
 * which offset reads on.
 *
 * @example
 * ```ts
 * const backend = new MemoryBackend({ '/notes.md': '# Notes\nShip it.' });
 * const reader = readFileTool(backend, { maxReadChars: 10_000 });
 * reader.name; // 'read_file'
 * ```
 */
export function readFileTool(backend: Backend, limits: ReadToolLimits = {}): AnyTool {
  const maxChars = limits.maxReadChars ?? 20_000;
  return tool({
    name: 'read_file',
    description:
      'Read a text file. Lines are numbered from 1. Use offset (0-based line) and limit to page through long files.',
    parameters: z.object({
      path: z.string().describe('Path of the file, e.g. /src/index.ts'),
      offset: z.number().int().min(0).default(0).describe('First line to read, 0-based'),
      limit: z.number().int().min(1).max(5000).default(500).describe('Lines to read'),
    }),
    readOnly: true,
    execute: async ({ path, offset, limit }, { signal }) => {
      const content = await backend.read(path, { signal });
      if (content === '') return '(empty file)';
      // Lines are read as offsets into the content, never split into an array: a file of a million
      // short lines costs the text itself plus the lines returned.
      const total = countLines(content);
      if (offset >= total)
        throw new Error(`offset ${offset} is past the end of ${normalizePath(path)} (${total} lines)`);
      const out: string[] = [];
      let size = 0;
      let next = offset;
      eachLine(content, (start, end, index) => {
        if (index < offset) return true;
        if (index >= offset + limit) return false;
        const line = `${String(index + 1).padStart(6)}\t${content.slice(start, Math.min(end, start + 2000))}`;
        if (size + line.length > maxChars && out.length > 0) return false;
        out.push(line);
        size += line.length + 1;
        next = index + 1;
        return true;
      });
      if (next < total) out.push(`[… ${total - next} more lines; read on with offset=${next}]`);
      return out.join('\n');
    },
  });
}

/**
 * `ls`, `glob` and `grep`: listing and searching a {@link Backend}, all read-only.
 *
 * @example
 * ```ts
 * const [ls, glob, grep] = searchTools(new MemoryBackend({ '/a.md': 'hello' }));
 * ```
 */
export function searchTools(backend: Backend, limits: ReadToolLimits = {}): AnyTool[] {
  const maxResults = limits.maxResults ?? 200;
  const ls = tool({
    name: 'ls',
    description: 'List the files and folders directly inside a folder (default: the root "/").',
    parameters: z.object({ path: z.string().default('/').describe('Folder to list') }),
    readOnly: true,
    execute: async ({ path }, { signal }) => {
      const entries = await backend.ls(path, { signal });
      if (entries.length === 0) return `${normalizePath(path)} is empty`;
      return entries
        .map((e) => (e.kind === 'directory' ? `${e.path}/` : `${e.path} (${e.size ?? 0} bytes)`))
        .join('\n');
    },
  });
  const glob = tool({
    name: 'glob',
    description:
      'Find files by name pattern (** any folders, * any name part, {a,b} either), e.g. "**/*.ts".',
    parameters: z.object({
      pattern: z.string().describe('Glob pattern, relative to path (or absolute, starting with /)'),
      path: z.string().default('/').describe('Folder to search in'),
    }),
    readOnly: true,
    execute: async ({ pattern, path }, { signal }) => {
      const matched = await findFiles(backend, path, pattern, { signal });
      if (matched.length === 0) return `no files match "${pattern}" in ${normalizePath(path)}`;
      return listed(matched, maxResults);
    },
  });
  const grep = tool({
    name: 'grep',
    description: 'Search file contents for literal text. Returns path:line: text for each matching line.',
    parameters: z.object({
      pattern: z.string().min(1).describe('Text to find (literal, not a regular expression)'),
      path: z.string().default('/').describe('Folder (or file) to search'),
      glob: z.string().optional().describe('Only files matching this glob, e.g. "**/*.md"'),
      ignore_case: z.boolean().default(false),
    }),
    readOnly: true,
    execute: async ({ pattern, path, glob: filter, ignore_case }, { signal }) => {
      const files = filter
        ? await findFiles(backend, path, filter, { signal })
        : await backend.files(path, { signal });
      // Lines are searched one at a time: text spanning a line break never matches.
      if (pattern.includes('\n')) return `no matches for "${pattern}" in ${normalizePath(path)}`;
      const needle = ignore_case ? pattern.toLowerCase() : pattern;
      const hits: string[] = [];
      // One file at a time, line by line as offsets into its text, stopping at the first hit past the
      // cap: memory is one file (at most the backend's read cap) plus `maxResults` short lines.
      for (const file of files) {
        if (hits.length > maxResults) break;
        signal.throwIfAborted();
        const content = await backend.read(file, { signal }).catch(() => undefined);
        if (content === undefined) continue;
        const hit = (start: number, end: number, index: number): boolean => {
          hits.push(`${file}:${index + 1}: ${content.slice(start, Math.min(end, start + 300))}`);
          return hits.length <= maxResults;
        };
        if (ignore_case)
          eachLine(content, (start, end, index) =>
            content.slice(start, end).toLowerCase().includes(needle) ? hit(start, end, index) : true,
          );
        else eachMatchingLine(content, needle, hit);
      }
      if (hits.length === 0) return `no matches for "${pattern}" in ${normalizePath(path)}`;
      return listed(hits, maxResults);
    },
  });
  return [ls, glob, grep];
}

/** Files below `path` whose path (relative to `path`, or absolute for a pattern starting with `/`) matches. */
export async function findFiles(
  backend: Backend,
  path: string,
  pattern: string,
  options: BackendCallOptions = {},
): Promise<string[]> {
  const base = normalizePath(path);
  const absolute = pattern.startsWith('/');
  const regex = globToRegExp(absolute ? pattern.slice(1) : pattern);
  const prefix = base === '/' ? '/' : `${base}/`;
  return (await backend.files(base, options)).filter((file) =>
    regex.test(absolute ? file.slice(1) : file.slice(prefix.length)),
  );
}

function listed(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join('\n');
  return items.length > max ? `${shown}\n[… more results; narrow the search]` : shown;
}

/**
 * Visits the lines of `text` holding `needle`, in order, each once (the search jumps from match to
 * match, so a text with few matches is read once); stops when `visit` returns `false`.
 */
function eachMatchingLine(
  text: string,
  needle: string,
  visit: (start: number, end: number, index: number) => boolean,
): void {
  let lineStart = 0;
  let line = 0;
  for (let at = text.indexOf(needle); at >= 0; ) {
    for (let newline = text.indexOf('\n', lineStart); newline >= 0 && newline < at; ) {
      line++;
      lineStart = newline + 1;
      newline = text.indexOf('\n', lineStart);
    }
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    if (!visit(lineStart, end, line)) return;
    if (newline < 0) return;
    line++;
    lineStart = newline + 1;
    at = text.indexOf(needle, lineStart);
  }
}
