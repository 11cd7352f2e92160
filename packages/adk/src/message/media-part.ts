import { AdkError } from '../errors/adk-error.js';
import type { AudioPart, FilePart, ImagePart } from './message.js';

/**
 * A media part: an image, a file or a sound recording.
 *
 * @example
 * ```ts
 * const message = userMessage([{ type: 'text', text: 'Compare these' }, { type: 'image', url: 'https://example.com/a.png' }]);
 * const content = typeof message.content === 'string' ? [] : message.content;
 * const parts: MediaPart[] = content.filter((part) => part.type === 'image' || part.type === 'file'); // the image
 * ```
 */
export type MediaPart = ImagePart | FilePart | AudioPart;

/** Base64 without Node's Buffer, so messages can be built in browsers too. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * What {@link mediaPart} builds a part from: its type, its media type, and either `bytes` or a `url`.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode('%PDF-1.7');
 * const init: MediaPartInit = { type: 'file', mediaType: 'application/pdf', bytes, filename: 'a.pdf' };
 * ```
 */
export type MediaPartInit = {
  readonly type: MediaPart['type'];
  readonly mediaType: string;
  readonly filename?: string;
} & (
  | { readonly bytes: Uint8Array; readonly url?: undefined }
  | { readonly url: string; readonly bytes?: undefined }
);

/**
 * Builds an image, file or audio part from bytes (stored as base64, so the message stays JSON in
 * checkpoints and sessions) or from a URL.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` when `mediaType` is not of the form `type/subtype`.
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const question = userMessage([
 *   { type: 'text', text: 'Summarise this report.' },
 *   mediaPart({ type: 'file', mediaType: 'application/pdf', bytes: await readFile('report.pdf') }),
 * ]);
 * ```
 */
export function mediaPart(init: MediaPartInit): MediaPart {
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(init.mediaType)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `mediaPart: mediaType "${init.mediaType}" is not a media type; write it as type/subtype, e.g. image/png`,
    );
  }
  const source = init.bytes === undefined ? { url: init.url } : { data: toBase64(init.bytes) };
  if (init.type === 'file') {
    return {
      type: 'file',
      mediaType: init.mediaType,
      ...(init.filename === undefined ? {} : { filename: init.filename }),
      ...source,
    };
  }
  if (init.type === 'audio') return { type: 'audio', mediaType: init.mediaType, ...source };
  return { type: 'image', mediaType: init.mediaType, ...source };
}

/**
 * The bytes of an inline media part (decoded from base64); `undefined` for a part given by URL.
 *
 * @example
 * ```ts
 * const part = mediaPart({ type: 'image', mediaType: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]) });
 * const bytes = mediaBytes(part); // Uint8Array [137, 80, 78, 71]
 * ```
 */
export function mediaBytes(part: MediaPart): Uint8Array | undefined {
  return part.data === undefined ? undefined : fromBase64(part.data);
}

/**
 * A URL for a media part: its own URL, or a `data:` URL made of its inline bytes (the form OpenAI's
 * `image_url` accepts).
 *
 * @example
 * ```ts
 * mediaUrl({ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }); // 'data:image/png;base64,iVBORw0KGgo='
 * ```
 */
export function mediaUrl(part: MediaPart): string {
  if (part.url !== undefined) return part.url;
  return `data:${part.mediaType ?? 'application/octet-stream'};base64,${part.data}`;
}
