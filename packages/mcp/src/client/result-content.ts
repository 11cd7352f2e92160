import type { ContentPart, JsonValue } from '@weft/adk';

/** One block of an MCP tool result or prompt message, as the SDK returns it (loosely typed). */
export interface McpContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: {
    readonly uri: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
  };
}

/** What `tools/call` returns, in the parts this package reads. */
export interface McpCallResult {
  readonly content?: readonly McpContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** Converts one MCP content block to a message part: text, an inline image, audio or file, or a note. */
export function blockToPart(block: McpContentBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text ?? '' };
    case 'image':
      return { type: 'image', mediaType: block.mimeType ?? 'image/png', data: block.data ?? '' };
    case 'audio':
      return { type: 'audio', mediaType: block.mimeType ?? 'audio/wav', data: block.data ?? '' };
    case 'resource_link':
      return { type: 'text', text: `[resource ${block.name ?? ''} <${block.uri ?? ''}>]` };
    case 'resource': {
      const resource = block.resource;
      if (resource?.text !== undefined) return { type: 'text', text: resource.text };
      if (resource?.blob !== undefined) {
        const filename = resource.uri.split('/').pop() || resource.uri;
        const mediaType = resource.mimeType ?? 'application/octet-stream';
        return { type: 'file', mediaType, data: resource.blob, filename };
      }
      return { type: 'text', text: `[resource <${resource?.uri ?? ''}>, empty]` };
    }
    default:
      return { type: 'text', text: `[${block.type} content, not shown]` };
  }
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * The parts of a tool message answering an MCP call: each content block as a part, where a text block
 * that is the JSON of the structured content becomes a JSON part (the spec asks servers to send both);
 * structured content without any content block becomes one JSON part. Structured content that a server
 * sends beside a different text (a summary of it) is left out: the text is what the server meant the
 * model to read, and sending both would pay for it twice.
 */
export function resultToParts(result: McpCallResult): ContentPart[] {
  const structured = result.structuredContent;
  const blocks = result.content ?? [];
  if (structured !== undefined && blocks.length === 0) {
    return [{ type: 'json', value: structured as { [key: string]: JsonValue } }];
  }
  return blocks.map((block) =>
    structured !== undefined && block.type === 'text' && sameJson(block.text ?? '', structured)
      ? { type: 'json', value: structured as { [key: string]: JsonValue } }
      : blockToPart(block),
  );
}
