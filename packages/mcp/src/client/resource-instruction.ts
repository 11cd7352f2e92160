import type { AgentMiddleware, Message } from '@weft/adk';
import type { McpToolset } from './mcp-toolset.js';

/**
 * Options of {@link mcpResourceInstruction}.
 *
 * @example
 * ```ts
 * const docs = mcpToolset({ url: 'https://mcp.example.com/docs' });
 * const options: McpResourceInstructionOptions = { toolset: docs, uris: ['file:///style-guide.md'] };
 * ```
 */
export interface McpResourceInstructionOptions {
  readonly toolset: Pick<McpToolset, 'readResource'>;
  /** The resources to add, in order. */
  readonly uris: readonly string[];
  /** The heading of the section (default `Resources`). */
  readonly title?: string;
}

/**
 * A middleware that reads MCP resources before every model call and adds their text to the instruction,
 * as a system message after the agent's own (binary resources are named, not inlined). A resource that
 * cannot be read fails the model call with the server's error.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const docs = mcpToolset({ url: 'https://mcp.example.com/docs' });
 * const agent = new ChatModelAgent({
 *   name: 'writer',
 *   model,
 *   middleware: [mcpResourceInstruction({ toolset: docs, uris: ['file:///style-guide.md'] })],
 * });
 * ```
 */
export function mcpResourceInstruction(options: McpResourceInstructionOptions): AgentMiddleware {
  const title = options.title ?? 'Resources';
  return {
    name: 'mcp-resource-instruction',
    beforeModel: async (request) => {
      const sections: string[] = [];
      for (const uri of options.uris) {
        for (const contents of await options.toolset.readResource(uri)) {
          const body = contents.text ?? `(binary, ${contents.mimeType ?? 'unknown type'}, not shown)`;
          sections.push(`### ${contents.uri}\n${body}`);
        }
      }
      const section: Message = { role: 'system', content: `## ${title}\n\n${sections.join('\n\n')}` };
      const leading = request.messages.findIndex((m) => m.role !== 'system');
      const at = leading === -1 ? request.messages.length : leading;
      return {
        ...request,
        messages: [...request.messages.slice(0, at), section, ...request.messages.slice(at)],
      };
    },
  };
}
