import { WeftError } from '@weft/compose';

/**
 * Every failure `@weft/adk` reports, as a closed union (`error.code`).
 *
 * @example
 * ```ts
 * function report(error: unknown): void {
 *   if (AdkError.isInstance(error) && error.code === 'TOOL_TIMEOUT') console.log('the tool was too slow');
 * }
 * ```
 */
export type AdkErrorCode =
  | 'MODEL_ERROR'
  | 'TOOL_ERROR'
  | 'TOOL_NOT_FOUND'
  | 'INVALID_TOOL_ARGUMENTS'
  | 'TOOL_TIMEOUT'
  /**
   * Only for a subclass that adds fields to an abort (prebuilt's `BackendError { reason, path }`); adk
   * itself throws compose's one abort error (`WeftError` `ABORTED`), and `isAbortError` takes both.
   */
  | 'ABORTED'
  | 'SCRIPT_EXHAUSTED'
  | 'INVALID_ARGUMENT'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXISTS'
  | 'SESSION_STORE'
  /** The session is finished and takes no new turns. */
  | 'SESSION_FINISHED'
  /** The session's status is not the one an operation expects (see `SessionStatusError`). */
  | 'SESSION_STATUS'
  /** A Runner's `beforeRun` hook refused the turn (see `RunRefusedError`). */
  | 'RUN_REFUSED'
  /** A guardrail's tripwire stopped the turn (see `GuardrailTripwireError`). */
  | 'GUARDRAIL_TRIPWIRE'
  | 'MAX_ITERATIONS'
  | 'OUTPUT_INVALID'
  | 'NOT_RESUMABLE'
  | 'UNSUPPORTED_PART';

/** The marker that tells an adk error from other Weft errors, whose codes belong to another union. */
const adkMarker = Symbol.for('weft.adk.error');

/**
 * The base error of `@weft/adk`: a `WeftError` of `@weft/compose` whose readonly `code` comes from
 * {@link AdkErrorCode}, with a `cause`, and a `Symbol.for` marker so {@link AdkError.isInstance} also
 * recognises errors thrown by a duplicate copy of this package (`WeftError.isInstance` recognises it
 * too, with its code typed `string`). A cancelled operation throws compose's one abort error (a
 * `WeftError` with code `ABORTED`, name `AbortError`), not an adk error.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const runner = new Runner({ agent: new ChatModelAgent({ name: 'a', model }), sessionService: new MemorySessionService() });
 * try {
 *   await runner.resume({ userId: 'u1', sessionId: 'gone' }).next();
 * } catch (error) {
 *   if (AdkError.isInstance(error) && error.code === 'SESSION_NOT_FOUND') console.log('start a new one');
 * }
 * ```
 */
export class AdkError extends WeftError<AdkErrorCode> {
  override readonly family: string = 'adk';
  readonly [adkMarker] = true;

  constructor(code: AdkErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'AdkError';
  }

  /** True for any adk error, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is AdkError {
    return (
      typeof value === 'object' && value !== null && (value as { [adkMarker]?: unknown })[adkMarker] === true
    );
  }
}
