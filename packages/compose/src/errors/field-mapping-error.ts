import { WeftError } from './weft-error.js';

/**
 * A workflow's field mapping found no value at its source path when the run got there (the field is
 * missing from that output, or a value on the way is not an object). Compile-time checks catch what the
 * types and schemas know; this is what only the data can tell.
 *
 * @example
 * ```ts
 * const app = new Workflow<{ user?: { name: string } }, { text: string }>()
 *   .addNode('greet', ({ name }: { name: string }) => `Hello, ${name}`)
 *   .addInput('greet', START, mapFields('user.name', 'name'))
 *   .addInput(END, 'greet', toField('text'))
 *   .compile();
 * try {
 *   await app.invoke({}); // no user: the input of 'greet' cannot be built
 * } catch (error) {
 *   if (error instanceof FieldMappingError) console.log(error.node, error.source, error.field);
 * }
 * ```
 */
export class FieldMappingError extends WeftError {
  /** The node whose input was being built (`__end__` for the workflow's output). */
  readonly node: string;
  /** The node whose output the field was read from (`__start__` for the workflow's input). */
  readonly source: string;
  /** The source field path, dotted. */
  readonly field: string;

  constructor(init: { node: string; source: string; field: string; reason: string }) {
    super(
      'INVALID_INPUT',
      `the input of "${init.node}" maps field "${init.field}" of "${init.source}", but ${init.reason}`,
    );
    this.name = 'FieldMappingError';
    this.node = init.node;
    this.source = init.source;
    this.field = init.field;
  }
}
