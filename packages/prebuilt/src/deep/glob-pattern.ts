/**
 * Compiles a glob pattern to a regular expression over `/`-separated paths: `**` matches any number of
 * folders, `*` anything within one name, `?` one character, `{a,b}` either alternative; everything
 * else is literal.
 *
 * @example
 * ```ts
 * globToRegExp('src/**\/*.{ts,tsx}').test('src/a/b.tsx'); // true
 * globToRegExp('*.md').test('docs/a.md'); // false
 * ```
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) source += '|';
    else source += char.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}${')'.repeat(braces)}$`);
}
