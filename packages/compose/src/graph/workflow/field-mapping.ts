/**
 * How a workflow node's input takes a value from a predecessor's output (Eino's `FieldMapping`): from a
 * field path of the output (or the whole output, `''`) to a field path of the input (or the whole input).
 * Paths are dotted (`'user.name'`); {@link mapFieldPaths} takes segment lists for keys with dots.
 */
export interface FieldMapping<TFrom extends string = string, TTo extends string = string> {
  /** The source path, dotted (`''`: the whole output). Typed as a literal when given as one. */
  readonly from: TFrom;
  /** The target path, dotted (`''`: the whole input). */
  readonly to: TTo;
  /** The source path's segments. */
  readonly fromPath: readonly string[];
  /** The target path's segments. */
  readonly toPath: readonly string[];
}

/** Any field mapping (for builders that accept several). */
export type AnyFieldMapping = FieldMapping<string, string>;

function split(path: string): readonly string[] {
  return path === '' ? [] : path.split('.');
}

/**
 * Maps field `from` of the predecessor's output to field `to` of the node's input (Eino's `MapFields`).
 * Nested paths are dotted; an object on the way to `to` is created.
 *
 * @example
 * ```ts
 * const app = new Workflow<{ user: { name: string } }, { text: string }>()
 *   .addNode('greet', ({ name }: { name: string }) => `Hello, ${name}`)
 *   .addInput('greet', START, mapFields('user.name', 'name'))
 *   .addInput(END, 'greet', toField('text'))
 *   .compile();
 * await app.invoke({ user: { name: 'Ada' } }); // { text: 'Hello, Ada' }
 * ```
 */
export function mapFields<const TFrom extends string, const TTo extends string>(
  from: TFrom,
  to: TTo,
): FieldMapping<TFrom, TTo> {
  return { from, to, fromPath: split(from), toPath: split(to) };
}

/**
 * Maps field `from` of the predecessor's output to the node's whole input (Eino's `FromField`); no other
 * mapping may then fill that input.
 *
 * @example
 * ```ts
 * const app = new Workflow<{ text: string }, { count: number }>()
 *   .addNode('count', (text: string) => text.length) // takes the whole field, not an object
 *   .addInput('count', START, fromField('text'))
 *   .addInput(END, 'count', toField('count'))
 *   .compile();
 * await app.invoke({ text: 'hello' }); // { count: 5 }
 * ```
 */
export function fromField<const TFrom extends string>(from: TFrom): FieldMapping<TFrom, ''> {
  return { from, to: '', fromPath: split(from), toPath: [] };
}

/**
 * Maps the predecessor's whole output to field `to` of the node's input (Eino's `ToField`).
 *
 * @example
 * ```ts
 * const app = new Workflow<{ user: { name: string } }, { text: string }>()
 *   .addNode('greet', ({ name }: { name: string }) => `Hello, ${name}`)
 *   .addInput('greet', START, mapFields('user.name', 'name'))
 *   .addInput(END, 'greet', toField('text'))
 *   .compile();
 * await app.invoke({ user: { name: 'Ada' } }); // { text: 'Hello, Ada' }
 * ```
 */
export function toField<const TTo extends string>(to: TTo): FieldMapping<'', TTo> {
  return { from: '', to, fromPath: [], toPath: split(to) };
}

/**
 * Maps between paths given as segment lists, for keys that contain dots (Eino's `MapFieldPaths`); `[]`
 * is the whole value. Not checked by the type checker (only by `compile()` against schemas, and at run
 * time).
 *
 * @example
 * ```ts
 * const app = new Workflow<{ stats: { 'p99.9': number } }, { slowest: number }>()
 *   .addNode('report', (input: { tail: { latency: number } }) => input.tail.latency)
 *   .addInput('report', START, mapFieldPaths(['stats', 'p99.9'], ['tail', 'latency'])) // 'p99.9' is one key
 *   .addInput(END, 'report', toField('slowest'))
 *   .compile();
 * await app.invoke({ stats: { 'p99.9': 840 } }); // { slowest: 840 }
 * ```
 */
export function mapFieldPaths(from: readonly string[], to: readonly string[]): AnyFieldMapping {
  return { from: from.join('.'), to: to.join('.'), fromPath: [...from], toPath: [...to] };
}

/** True for a value made by {@link mapFields} and its siblings. */
export function isFieldMapping(value: unknown): value is AnyFieldMapping {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as AnyFieldMapping).fromPath) &&
    Array.isArray((value as AnyFieldMapping).toPath)
  );
}
