/** The result of comparing an expected value (with matchers) against an actual one. */
export type MatchResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly path: string; readonly reason: string };

const OK: MatchResult = { ok: true };
const OPERATORS = new Set(['$any', '$regex', '$contains', '$oneOf', '$gte', '$lte']);

/**
 * Compares an actual value with an expected one, as eval sets write tool arguments:
 * - primitives compare with `===`; arrays element by element (same length);
 * - plain objects match **partially**: every expected key must match, extra actual keys are allowed —
 *   with `mode` `'exact'`, objects must have the same keys at every level (agentevals' and ADK's
 *   argument equality), extra actual keys failing as "not expected";
 * - an object with one `$` key is a matcher: `{ $any: true }` (present, any value), `{ $regex: 'a.+' }`
 *   (the value, as text, matches), `{ $contains: x }` (a substring, or an array element matching `x`),
 *   `{ $oneOf: [a, b] }`, `{ $gte: n }`, `{ $lte: n }`.
 *
 * @example
 * ```ts
 * matchValue({ city: { $regex: '^par', flags: 'i' }, days: { $gte: 1 } }, { city: 'Paris', days: 3, unit: 'C' });
 * // → { ok: true }
 * ```
 */
export function matchValue(
  expected: unknown,
  actual: unknown,
  path = '$',
  mode: 'partial' | 'exact' = 'partial',
): MatchResult {
  if (expected === undefined) return OK;
  if (isMatcher(expected)) return matchOperator(expected, actual, path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return fail(path, `expected an array, got ${describe(actual)}`);
    if (actual.length !== expected.length)
      return fail(path, `expected ${expected.length} items, got ${actual.length}`);
    for (let i = 0; i < expected.length; i++) {
      const result = matchValue(expected[i], actual[i], `${path}[${i}]`, mode);
      if (!result.ok) return result;
    }
    return OK;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return fail(path, `expected an object, got ${describe(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return fail(`${path}.${key}`, 'missing');
      const result = matchValue(value, actual[key], `${path}.${key}`, mode);
      if (!result.ok) return result;
    }
    if (mode === 'exact') {
      const extra = Object.keys(actual).find((key) => !(key in expected));
      if (extra !== undefined) return fail(`${path}.${extra}`, 'not expected (exact arguments)');
    }
    return OK;
  }
  return expected === actual ? OK : fail(path, `expected ${describe(expected)}, got ${describe(actual)}`);
}

function matchOperator(matcher: Record<string, unknown>, actual: unknown, path: string): MatchResult {
  if ('$any' in matcher) return OK;
  if ('$regex' in matcher) {
    const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
    const regex = new RegExp(String(matcher.$regex), typeof matcher.flags === 'string' ? matcher.flags : '');
    return regex.test(text ?? '')
      ? OK
      : fail(path, `${describe(actual)} does not match /${regex.source}/${regex.flags}`);
  }
  if ('$contains' in matcher) {
    const needle = matcher.$contains;
    if (typeof actual === 'string' && typeof needle === 'string')
      return actual.includes(needle)
        ? OK
        : fail(path, `${describe(actual)} does not contain ${describe(needle)}`);
    if (Array.isArray(actual))
      return actual.some((item, i) => matchValue(needle, item, `${path}[${i}]`).ok)
        ? OK
        : fail(path, `no item matches ${describe(needle)}`);
    return fail(path, `$contains needs a string or an array, got ${describe(actual)}`);
  }
  if ('$oneOf' in matcher) {
    const options = Array.isArray(matcher.$oneOf) ? matcher.$oneOf : [];
    return options.some((option) => matchValue(option, actual, path).ok)
      ? OK
      : fail(path, `${describe(actual)} is none of ${describe(options)}`);
  }
  const bound = '$gte' in matcher ? matcher.$gte : matcher.$lte;
  if (typeof actual !== 'number' || typeof bound !== 'number')
    return fail(path, `expected a number to compare with ${describe(bound)}, got ${describe(actual)}`);
  const ok = '$gte' in matcher ? actual >= bound : actual <= bound;
  return ok ? OK : fail(path, `${actual} is not ${'$gte' in matcher ? '>=' : '<='} ${bound}`);
}

function isMatcher(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value).filter((key) => key !== 'flags');
  return keys.length === 1 && OPERATORS.has(keys[0] as string);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(path: string, reason: string): MatchResult {
  return { ok: false, path, reason };
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
