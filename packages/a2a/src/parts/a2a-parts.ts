import type { Part } from '@a2a-js/sdk';
import type { ContentPart, JsonValue, MessageContent } from '@weft/adk';

/**
 * Weft message content as A2A parts: text as `text` parts, JSON as `data` parts, images, audio and
 * files as `raw` bytes (inline base64) or `url` parts with their media type and file name. Reasoning is
 * private to the model that wrote it and is left out.
 *
 * @example
 * ```ts
 * const parts = toA2aParts([{ type: 'text', text: 'Total:' }, { type: 'json', value: { eur: 12 } }]);
 * console.log(parts.map((part) => part.content?.$case)); // ['text', 'data']
 * ```
 */
export function toA2aParts(content: MessageContent): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [textPart(content)];
  const parts: Part[] = [];
  for (const part of content) {
    const converted = toA2aPart(part);
    if (converted) parts.push(converted);
  }
  return parts;
}

/**
 * A2A parts as Weft message content: `text` parts as text, `data` parts as JSON, `raw` and `url` parts
 * as image, audio or file parts by their media type (bytes as base64). A single text part becomes a
 * plain string.
 *
 * @example
 * ```ts
 * const content = fromA2aParts([{ content: { $case: 'text', value: 'Hi' }, mediaType: 'text/plain', filename: '', metadata: {} }]);
 * console.log(content); // 'Hi'
 * ```
 */
export function fromA2aParts(parts: readonly Part[]): MessageContent {
  const converted = parts.flatMap((part) => {
    const one = fromA2aPart(part);
    return one ? [one] : [];
  });
  const [first] = converted;
  if (converted.length === 1 && first?.type === 'text') return first.text;
  return converted;
}

/**
 * The text of A2A parts, joined (`data` parts as their JSON, media as nothing).
 *
 * @example
 * ```ts
 * const parts = toA2aParts([{ type: 'text', text: 'a' }, { type: 'json', value: 1 }]);
 * textOfParts(parts); // 'a\n1'
 * ```
 */
export function textOfParts(parts: readonly Part[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    const content = part.content;
    if (content?.$case === 'text') texts.push(content.value);
    else if (content?.$case === 'data') texts.push(JSON.stringify(content.value ?? null));
  }
  return texts.join('\n');
}

/**
 * An A2A text part.
 *
 * @example
 * ```ts
 * const part = textPart('Which date?');
 * console.log(part.content); // { $case: 'text', value: 'Which date?' }
 * ```
 */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: {} };
}

/**
 * An A2A data part (structured JSON).
 *
 * @example
 * ```ts
 * const part = dataPart({ approved: true });
 * console.log(part.content); // { $case: 'data', value: { approved: true } }
 * ```
 */
export function dataPart(value: unknown): Part {
  return {
    content: { $case: 'data', value: value ?? null },
    mediaType: 'application/json',
    filename: '',
    metadata: {},
  };
}

function toA2aPart(part: ContentPart): Part | undefined {
  switch (part.type) {
    case 'text':
      return textPart(part.text);
    case 'json':
      return dataPart(part.value);
    case 'image':
    case 'audio':
    case 'file': {
      const mediaType = part.mediaType ?? '';
      const filename = part.type === 'file' ? (part.filename ?? '') : '';
      const content =
        part.url !== undefined
          ? { $case: 'url' as const, value: part.url }
          : { $case: 'raw' as const, value: Buffer.from(part.data, 'base64') };
      return { content, mediaType, filename, metadata: {} };
    }
    case 'reasoning':
      return undefined;
  }
}

function fromA2aPart(part: Part): ContentPart | undefined {
  const content = part.content;
  if (!content) return undefined;
  switch (content.$case) {
    case 'text':
      return { type: 'text', text: content.value };
    case 'data':
      return { type: 'json', value: (content.value ?? null) as JsonValue };
    case 'raw':
      return mediaOf(part, { data: Buffer.from(content.value).toString('base64') });
    case 'url':
      return mediaOf(part, { url: content.value });
  }
}

function mediaOf(part: Part, source: { data: string } | { url: string }): ContentPart {
  const mediaType = part.mediaType || 'application/octet-stream';
  if (mediaType.startsWith('image/')) return { type: 'image', mediaType, ...source };
  if (mediaType.startsWith('audio/')) return { type: 'audio', mediaType, ...source };
  return { type: 'file', mediaType, ...(part.filename ? { filename: part.filename } : {}), ...source };
}
