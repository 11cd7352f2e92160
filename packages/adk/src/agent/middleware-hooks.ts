import { AdkError } from '../errors/adk-error.js';

/** The hooks an agent's middleware may have (and a plugin, around every agent). */
export const AGENT_HOOKS: readonly string[] = [
  'beforeAgent',
  'afterAgent',
  'beforeModel',
  'afterModel',
  'wrapModel',
  'beforeTool',
  'wrapToolCall',
  'afterTool',
];

/** The hooks only a Runner plugin has. */
export const RUNNER_HOOKS: readonly string[] = ['beforeRun', 'afterRun', 'onEvent'];

/** What a hook's name looks like: `before…`, `after…`, `wrap…` or `on…`. */
const hookShape = /^(before|after|wrap|on)[A-Z]/;

/**
 * Checks that a middleware (or a Runner plugin) has only hooks something calls: every member named like
 * a hook (`before…`, `after…`, `wrap…`, `on…`) — own or inherited, e.g. a class's methods — must be one
 * of `hooks`, and every hook it names must be a function. A hook nothing would call (a misspelled name,
 * a plugin hook on an agent's middleware) is refused rather than silently ignored. Other members (`name`,
 * a helper such as working memory's `read`, the tool a middleware offers) are left alone.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the hook and `where` it was found, with the hooks allowed.
 * @example
 * ```ts
 * const audit = { name: 'audit', beforeModel: () => undefined };
 * assertHooks(audit, { hooks: AGENT_HOOKS, where: 'middleware "audit" of agent "desk"' }); // fine
 * ```
 */
export function assertHooks(
  value: object,
  options: { readonly hooks: readonly string[]; readonly where: string },
): void {
  const { hooks, where } = options;
  for (const key of keysOf(value)) {
    const hook = (value as Record<string, unknown>)[key];
    const known = hooks.includes(key);
    if (known && (hook === undefined || typeof hook === 'function')) continue;
    if (!known && !hookShape.test(key)) continue;
    const why = known
      ? `is not a function`
      : RUNNER_HOOKS.includes(key)
        ? `is a Runner plugin hook; pass it in new Runner({ plugins })`
        : `is not a hook anything calls`;
    throw new AdkError(
      'INVALID_ARGUMENT',
      `hook "${key}" of ${where} ${why}; the hooks are ${hooks.join(', ')}`,
    );
  }
}

/** Own and inherited property names, up to (not including) `Object.prototype`; no constructor. */
function keysOf(value: object): string[] {
  const keys = new Set<string>();
  for (let current: object | null = value; current && current !== Object.prototype; ) {
    for (const key of Object.getOwnPropertyNames(current)) if (key !== 'constructor') keys.add(key);
    current = Object.getPrototypeOf(current) as object | null;
  }
  return [...keys];
}

/**
 * How a middleware is named in errors: by its `name`, or by its position.
 *
 * @example
 * ```ts
 * middlewareLabel({ name: 'audit' }, 0, 'agent "desk"'); // 'middleware "audit" of agent "desk"'
 * ```
 */
export function middlewareLabel(
  middleware: { readonly name?: unknown },
  index: number,
  owner: string,
): string {
  const name = typeof middleware.name === 'string' ? `"${middleware.name}"` : `#${index + 1}`;
  return `middleware ${name} of ${owner}`;
}
