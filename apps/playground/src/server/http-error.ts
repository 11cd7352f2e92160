import { redactSecrets, WeftError } from '@weft/compose';
import type { ZodError } from 'zod';
import type { ApiError } from '../shared/wire.ts';

/** One wrong field of a request. */
export interface FieldIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * An error the API answers with a 4xx status and a JSON body naming what was wrong.
 *
 * @example
 * ```ts
 * throw new HttpError(404, 'NOT_FOUND', 'no graph "loop"');
 * ```
 */
export class HttpError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500;
  readonly code: string;
  readonly issues: readonly FieldIssue[] | undefined;

  constructor(status: HttpError['status'], code: string, message: string, issues?: readonly FieldIssue[]) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }

  /**
   * A 400 listing each failed check of a zod parse, with paths prefixed by `prefix` (`input.target`).
   *
   * @example
   * ```ts
   * if (!parsed.success) throw HttpError.fromZod(parsed.error, 'input');
   * ```
   */
  static fromZod(error: ZodError, prefix: string, code = 'INVALID_INPUT'): HttpError {
    const issues = error.issues.map((issue) => ({
      path: [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.'),
      message: issue.message,
    }));
    const list = issues.map((issue) => `${issue.path || '(body)'}: ${issue.message}`).join('; ');
    return new HttpError(400, code, `invalid ${prefix || 'body'}: ${list}`, issues);
  }
}

/**
 * Maps anything thrown while answering a request to a status and a JSON body: `HttpError` as is,
 * engine validation errors to 400, unknown ids to 404, everything else to 500 (never a crash).
 *
 * @example
 * ```ts
 * app.onError((error, c) => { const { status, body } = errorResponse(error); return c.json(body, status); });
 * ```
 */
export function errorResponse(error: unknown): { status: HttpError['status']; body: ApiError } {
  if (error instanceof HttpError) {
    const issues = error.issues ? { issues: error.issues } : {};
    return { status: error.status, body: { error: { code: error.code, message: error.message, ...issues } } };
  }
  if (WeftError.isInstance(error)) {
    const status = weftStatus(error.code);
    const raw = (error as { issues?: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> })
      .issues;
    const issues = raw?.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
    return {
      status,
      body: { error: { code: error.code, message: error.message, ...(issues ? { issues } : {}) } },
    };
  }
  const message = redactSecrets(error instanceof Error ? error.message : String(error));
  return { status: 500, body: { error: { code: 'INTERNAL', message } } };
}

function weftStatus(code: string): HttpError['status'] {
  switch (code) {
    case 'NOT_FOUND':
      return 404;
    case 'INVALID_INPUT':
    case 'INVALID_UPDATE':
    case 'INVALID_ARGUMENT':
    case 'INVALID_RESUME':
      return 400;
    case 'CHECKPOINT_CONFLICT':
      return 409;
    // A damaged checkpoint: the server's own data, answered with its code (CHECKPOINT_CORRUPT) and the
    // thread and checkpoint in the message; the rest of the store keeps serving.
    case 'CHECKPOINT_CORRUPT':
      return 500;
    default:
      return 500;
  }
}
