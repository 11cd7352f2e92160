import { redactSecrets } from '@weft/compose';

/**
 * Turns a value into an attribute string: JSON when it can be, `String(value)` otherwise, credentials
 * redacted (see `redactSecrets`), cut to `limit` characters (with a marker saying how much was cut).
 * Used only when content capture is switched on.
 */
export function contentString(value: unknown, limit: number): string {
  const text = redactSecrets(rawString(value));
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}…[${text.length - limit} more characters]`;
}

function rawString(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value, replacer) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text;
}

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return value;
}
