import type { ContentPartType, MessageRole } from '../message/message.js';
import { AdkError } from './adk-error.js';

/**
 * Options of the {@link UnsupportedPartError} constructor.
 *
 * @example
 * ```ts
 * throw new UnsupportedPartError({ model: 'anthropic:claude-sonnet-4', part: 'audio', role: 'user' });
 * ```
 */
export interface UnsupportedPartErrorOptions {
  /** The model (adapter) that cannot send the part. */
  readonly model: string;
  /** The part's type. */
  readonly part: ContentPartType;
  /** The role of the message that holds it. */
  readonly role: MessageRole;
  /** What to do instead, appended to the message. */
  readonly hint?: string;
}

/**
 * A model adapter cannot send a content part (audio to Anthropic, a file in a system message, …). It
 * names the part, the role of its message and the model, with code `UNSUPPORTED_PART`.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const data = 'UklGRiQAAABXQVZF'; // base64
 * try {
 *   await model.generate([userMessage([{ type: 'audio', mediaType: 'audio/wav', data }])]);
 * } catch (error) {
 *   if (error instanceof UnsupportedPartError) console.log(error.part, error.role); // 'audio' 'user'
 * }
 * ```
 */
export class UnsupportedPartError extends AdkError {
  readonly model: string;
  readonly part: ContentPartType;
  readonly role: MessageRole;

  constructor(options: UnsupportedPartErrorOptions) {
    super(
      'UNSUPPORTED_PART',
      `model "${options.model}" cannot send a ${options.part} part in a ${options.role} message${
        options.hint === undefined ? '' : `; ${options.hint}`
      }`,
    );
    this.name = 'UnsupportedPartError';
    this.model = options.model;
    this.part = options.part;
    this.role = options.role;
  }
}
