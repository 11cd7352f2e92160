/** What a redacted credential is replaced by. */
export const REDACTED = '[REDACTED]';

/**
 * Credentials recognised by their shape, whatever configured them: provider API keys (OpenAI and
 * Anthropic `sk-…`, Google `AIza…`, GitHub, Slack, AWS access key ids), `Bearer` tokens and the value of
 * an `api_key` / `x-api-key` / `authorization` / `token` / `password` / `secret` field in JSON, query
 * strings or headers echoed back in an error body.
 */
const SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/g, REDACTED],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [
    /(["']?\b(?:api[_-]?key|x-api-key|authorization|access[_-]?token|token|password|secret)["']?\s*[:=]\s*["']?)([^"'\s,&}]{6,})/gi,
    `$1${REDACTED}`,
  ],
];

/** Secret values registered by the code that configured them (model adapters register their API key). */
const registered = new Set<string>();

/**
 * Registers a secret value to be redacted from every error message, span, stored error and cassette
 * Weft writes from now on in this process (see {@link redactSecrets}). Model adapters register the API
 * key they were given; register other credentials your tools hold (a database password, a webhook
 * token). Values shorter than 8 characters are ignored (too likely to occur as ordinary text).
 *
 * @example
 * ```ts
 * registerSecret(process.env.CRM_TOKEN ?? '');
 * redactSecrets(`CRM refused token ${process.env.CRM_TOKEN}`); // 'CRM refused token [REDACTED]'
 * ```
 */
export function registerSecret(value: string): void {
  if (value.length >= 8) registered.add(value);
}

/**
 * `text` with credentials replaced by `[REDACTED]`: the registered secrets (see
 * {@link registerSecret}), the `extra` values given, and anything shaped like an API key, a bearer token
 * or an `api_key=…` / `"authorization": "…"` field. Errors pass through it before they reach a sink — a
 * `WeftError`'s message when it is made, a failed task's stored error, OpenTelemetry spans, the
 * playground's answers — so a provider's 401 that echoes the key leaks it nowhere.
 *
 * @example
 * ```ts
 * redactSecrets('401: Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuvwx');
 * // '401: Incorrect API key provided: [REDACTED]'
 * redactSecrets('{"api_key":"hunter2hunter2"}'); // '{"api_key":"[REDACTED]"}'
 * ```
 */
export function redactSecrets(text: string, extra?: Iterable<string>): string {
  let result = text;
  for (const value of registered) if (result.includes(value)) result = result.replaceAll(value, REDACTED);
  if (extra)
    for (const value of extra)
      if (value.length >= 8 && result.includes(value)) result = result.replaceAll(value, REDACTED);
  for (const [shape, replacement] of SHAPES) result = result.replace(shape, replacement);
  return result;
}

/**
 * An error as it may leave the process: the same error when its message and stack hold no secret,
 * else a copy (same name, code and class prototype) whose message and stack are redacted. Its `cause`
 * is left out of the copy.
 *
 * @example
 * ```ts
 * const safe = redactedError(new Error('bad key sk-abcdefghijklmnopqrstu'));
 * safe.message; // 'bad key [REDACTED]'
 * ```
 */
export function redactedError<T extends Error>(error: T): T {
  const message = redactSecrets(error.message);
  const stack = error.stack === undefined ? undefined : redactSecrets(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as T;
  for (const key of Object.keys(error))
    if (key !== 'cause') (copy as Record<string, unknown>)[key] = (error as Record<string, unknown>)[key];
  Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true });
  Object.defineProperty(copy, 'name', { value: error.name, writable: true, configurable: true });
  if (stack !== undefined)
    Object.defineProperty(copy, 'stack', { value: stack, writable: true, configurable: true });
  return copy;
}
