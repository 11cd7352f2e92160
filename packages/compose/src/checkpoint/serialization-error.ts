import { WeftError } from '../errors/weft-error.js';

/**
 * A value could not be turned into checkpoint text (or checkpoint text back into a value).
 * `path` names where inside the value the problem sits (`messages[3].meta`; `''` for the value itself).
 *
 * @example
 * ```ts
 * try {
 *   class Foo {}
 *   serialize({ items: [1, new Foo()] }); // class instances are not plain data
 * } catch (error) {
 *   if (error instanceof SerializationError) console.log(error.path); // 'items[1]'
 * }
 * ```
 */
export class SerializationError extends WeftError {
  /** Where inside the value the problem is, as a property path (`''` for the value itself). */
  readonly path: string;

  constructor(message: string, path: string, options?: { cause?: unknown }) {
    super('SERIALIZATION', message, options);
    this.name = 'SerializationError';
    this.path = path;
  }
}
