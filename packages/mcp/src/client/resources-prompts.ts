import type { AssistantMessage, ContentPart, Message, UserMessage } from '@weft/adk';
import { describe, WeftMcpError } from '../errors/weft-mcp-error.js';
import type { McpConnection } from './mcp-connection.js';
import { blockToPart, type McpContentBlock } from './result-content.js';

/**
 * A resource a server lists.
 *
 * @example
 * ```ts
 * const readme: McpResourceInfo = { uri: 'file:///README.md', name: 'README.md', mimeType: 'text/markdown' };
 * ```
 */
export interface McpResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/**
 * One content of a read resource: text, or binary data in base64 (`blob`).
 *
 * @example
 * ```ts
 * const contents: McpResourceContents = { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hello' };
 * ```
 */
export interface McpResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

/**
 * A prompt a server offers, with the arguments it takes.
 *
 * @example
 * ```ts
 * const prompt: McpPromptInfo = { name: 'summarize', arguments: [{ name: 'topic', required: true }] };
 * ```
 */
export interface McpPromptInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: ReadonlyArray<{
    readonly name: string;
    readonly description?: string;
    readonly required?: boolean;
  }>;
}

async function request<T>(connection: McpConnection, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (WeftMcpError.isInstance(error)) throw error;
    throw new WeftMcpError(
      'REQUEST_FAILED',
      `MCP server "${connection.label}": ${what} failed: ${describe(error)}`,
      {
        cause: error,
      },
    );
  }
}

/** Every page of a cursor-paged list. */
async function allPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>,
) {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    items.push(...result.items);
    cursor = result.next;
  } while (cursor !== undefined);
  return items;
}

export function listResources(connection: McpConnection): Promise<McpResourceInfo[]> {
  return request(connection, 'resources/list', async () => {
    const client = await connection.client();
    return allPages(async (cursor) => {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      return { items: page.resources as McpResourceInfo[], next: page.nextCursor };
    });
  });
}

export function readResource(connection: McpConnection, uri: string): Promise<McpResourceContents[]> {
  return request(connection, `resources/read of "${uri}"`, async () => {
    const client = await connection.client();
    const result = await client.readResource({ uri });
    return result.contents as McpResourceContents[];
  });
}

export function listPrompts(connection: McpConnection): Promise<McpPromptInfo[]> {
  return request(connection, 'prompts/list', async () => {
    const client = await connection.client();
    return allPages(async (cursor) => {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
      return { items: page.prompts as McpPromptInfo[], next: page.nextCursor };
    });
  });
}

export function getPrompt(
  connection: McpConnection,
  name: string,
  args: Readonly<Record<string, string>> = {},
): Promise<Message[]> {
  return request(connection, `prompts/get of "${name}"`, async () => {
    const client = await connection.client();
    const result = await client.getPrompt({ name, arguments: { ...args } });
    return result.messages.map((message): Message => {
      const parts: ContentPart[] = [blockToPart(message.content as McpContentBlock)];
      const content = parts.length === 1 && parts[0]?.type === 'text' ? parts[0].text : parts;
      return message.role === 'assistant'
        ? ({ role: 'assistant', content } satisfies AssistantMessage)
        : ({ role: 'user', content } satisfies UserMessage);
    });
  });
}
