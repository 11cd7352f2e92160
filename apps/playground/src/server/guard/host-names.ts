import { isIP } from 'node:net';

/**
 * The host name of a `Host` header (`localhost:4317` → `localhost`, `[::1]:4317` → `::1`), lowercased,
 * without a trailing dot; undefined when the header is missing or not a host.
 *
 * @example
 * ```ts
 * hostnameOf('[::1]:4317'); // '::1'
 * ```
 */
export function hostnameOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '' || /[\s/@?#\\]/.test(header)) return undefined;
  try {
    return bare(new URL(`http://${header}`).hostname);
  } catch {
    return undefined;
  }
}

/**
 * Whether a host name or address always means this machine: `localhost` (and `*.localhost`, which
 * browsers resolve to loopback themselves), 127.0.0.0/8 and `::1`. No DNS answer can make an
 * attacker's page such a name, which is what defeats DNS rebinding.
 *
 * @example
 * ```ts
 * isLoopback('127.0.0.1'); // true
 * isLoopback('0.0.0.0'); // false: every interface
 * ```
 */
export function isLoopback(host: string): boolean {
  const name = bare(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name === '0:0:0:0:0:0:0:1' || name === '::ffff:127.0.0.1';
}

/**
 * Whether binding `host` listens on every interface (`0.0.0.0`, `::`).
 *
 * @example
 * ```ts
 * isWildcard('0.0.0.0'); // true
 * ```
 */
export function isWildcard(host: string): boolean {
  const name = bare(host);
  return name === '0.0.0.0' || name === '::' || name === '0:0:0:0:0:0:0:0';
}

/** Lowercased, brackets and one trailing dot removed: the form every comparison uses. */
export function bare(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, '');
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}
