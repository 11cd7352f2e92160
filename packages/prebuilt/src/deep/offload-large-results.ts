import { type AgentMiddleware, messageText, toolMessage } from '@weft/adk';
import type { Backend } from './backend/backend.js';

/** Options of {@link offloadLargeResults}. */
export interface OffloadOptions {
  readonly backend: Backend;
  /** Results longer than this many characters are offloaded (default 20 000). */
  readonly maxChars?: number;
  /** Where they are written (default `/large_results`). */
  readonly directory?: string;
  /** Tools never offloaded (default `['read_file']`, which pages by itself). */
  readonly skip?: readonly string[];
  /** Lines of the result kept in the message as a preview (default 10). */
  readonly previewLines?: number;
}

/**
 * Middleware that keeps huge tool results out of the context: a result over `maxChars` characters is
 * written to `<directory>/<toolCallId>.txt` on the backend, and the tool message says where (with a
 * short preview) so the model can read it back with `read_file`, page by page. The status of the
 * result is kept. Runs in `wrapToolCall`.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const backend = new MemoryBackend();
 * const crawl = tool({
 *   name: 'crawl',
 *   description: 'Fetches a whole site as text',
 *   parameters: z.object({ url: z.string() }),
 *   execute: ({ url }) => `${url}\n`.repeat(10_000),
 * });
 * const agent = new ChatModelAgent({
 *   name: 'a',
 *   model,
 *   tools: [crawl],
 *   middleware: [offloadLargeResults({ backend, maxChars: 5_000 })], // the model sees a preview and a path
 * });
 * ```
 */
export function offloadLargeResults(options: OffloadOptions): AgentMiddleware {
  const maxChars = options.maxChars ?? 20_000;
  const directory = (options.directory ?? '/large_results').replace(/\/+$/, '');
  const skip = new Set(options.skip ?? ['read_file']);
  const previewLines = options.previewLines ?? 10;
  return {
    name: 'offloadLargeResults',
    async wrapToolCall(call, next) {
      const result = await next(call);
      if (skip.has(call.name)) return result;
      const text = messageText(result);
      if (text.length <= maxChars) return result;
      const path = `${directory}/${call.id.replace(/[^\w-]/g, '_')}.txt`;
      await options.backend.write(path, text);
      const preview = text
        .split('\n')
        .slice(0, previewLines)
        .map((line) => line.slice(0, 200))
        .join('\n');
      const content = [
        `The result of ${call.name} was too large to show here (${text.length} characters).`,
        `It was saved to ${path}: read it with read_file (use offset and limit to page through it).`,
        `It starts with:\n${preview}`,
      ].join('\n');
      return toolMessage(content, {
        toolCallId: result.toolCallId,
        name: result.name,
        ...(result.status ? { status: result.status } : {}),
        ...(result.id ? { id: result.id } : {}),
      });
    },
  };
}
