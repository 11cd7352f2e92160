import { redactSecrets } from './redact-secrets.js';

/** Every failure the engine reports, as a closed union (`error.code`). */
export type WeftErrorCode =
  | 'GRAPH_INVALID'
  | 'NODE_FAILED'
  | 'NODE_TIMEOUT'
  | 'STEP_LIMIT'
  | 'INVALID_INPUT'
  | 'INVALID_UPDATE'
  | 'WRITE_CONFLICT'
  | 'STORE_CONFLICT'
  | 'REDUCER_FAILED'
  | 'STATE_MUTATED'
  | 'ABORTED'
  | 'SERIALIZATION'
  | 'CHECKPOINT'
  | 'CHECKPOINT_CONFLICT'
  | 'CHECKPOINT_CORRUPT'
  | 'INVALID_RESUME'
  | 'NOT_FOUND'
  | 'INVALID_ARGUMENT'
  | 'INTERRUPTED'
  | 'OUTSIDE_ENTRYPOINT'
  | 'EFFECT_FENCED'
  | 'STATE_VERSION';

const marker = Symbol.for('weft.error');

/**
 * The base error of every Weft package, generic over its package's closed code union: compose throws
 * `WeftError<WeftErrorCode>`, `@weft/adk` throws `AdkError extends WeftError<AdkErrorCode>`, the worker
 * `WorkerError extends WeftError<WorkerErrorCode>`. {@link WeftError.isInstance} recognises an error of
 * any package (also from a duplicate copy of one), so its `code` is typed `string`; each package's own
 * `isInstance` narrows to its code union. Compose's own errors are the Weft errors no other package
 * claims: {@link isComposeError}.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('loop', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'loop')
 *   .addConditionalEdges('loop', (s) => (s.count >= 0 ? 'loop' : END)) // never ends
 *   .compile();
 * try {
 *   await app.invoke({ count: 0 }, { maxSteps: 10 });
 * } catch (error) {
 *   if (WeftError.isInstance(error) && error.code === 'STEP_LIMIT') console.log('runaway loop');
 * }
 * ```
 */
export class WeftError<TCode extends string = WeftErrorCode> extends Error {
  /** What went wrong, from its package's closed union. */
  readonly code: TCode;
  readonly [marker] = true;
  /** The package that threw it (`compose`, `adk`, `worker`...). */
  readonly family: string = 'compose';

  constructor(code: TCode, message: string, options?: { cause?: unknown }) {
    // Credentials never reach a message (a provider's 401 echoing the key): see `redactSecrets`.
    super(redactSecrets(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = 'WeftError';
  }

  /** True for any Weft error of any package, even one thrown by another copy of a package. */
  static isInstance(value: unknown): value is WeftError<string> {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }
}

/**
 * True for an error of `@weft/compose` itself (its code is a {@link WeftErrorCode}), not one of another
 * package's family.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('loop', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'loop')
 *   .addConditionalEdges('loop', (s) => (s.count >= 0 ? 'loop' : END)) // never ends
 *   .compile();
 * await app.invoke({ count: 0 }, { maxSteps: 10 }).catch((error: unknown) => {
 *   if (isComposeError(error) && error.code === 'STEP_LIMIT') console.log('runaway loop');
 * });
 * ```
 */
export function isComposeError(value: unknown): value is WeftError<WeftErrorCode> {
  return WeftError.isInstance(value) && value.family === 'compose';
}

/** Converts anything thrown into an `Error` (strings and other values are wrapped, never lost). */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' ? value : `non-error thrown: ${safeString(value)}`, {
    cause: value,
  });
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
