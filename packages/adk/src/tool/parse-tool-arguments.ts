import type { z } from 'zod';

/**
 * The outcome of parsing a tool call's JSON arguments against the tool's schema.
 *
 * @example
 * ```ts
 * const weather = tool({
 *   name: 'weather',
 *   description: 'The weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 * const parsed: ParsedToolArguments<{ city: string }> = weather.parseArguments('{"city":"Oslo"}');
 * if (parsed.success) console.log(parsed.args.city);
 * ```
 */
export type ParsedToolArguments<TArgs> =
  | { readonly success: true; readonly args: TArgs }
  | {
      readonly success: false;
      readonly reason: 'invalid-json' | 'invalid-arguments';
      readonly message: string;
    };

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
    .join('.')
    .replaceAll('.[', '[');
}

/**
 * Parses the JSON text of a tool call and validates it with the schema. An empty text counts as `{}`
 * (models send it for tools without parameters). Failures explain every zod issue with its path, in
 * words the model can act on.
 *
 * @example
 * ```ts
 * const parsed = parseToolArguments('add', z.object({ a: z.number() }), '{"a":1}');
 * ```
 */
export function parseToolArguments<TArgs>(
  toolName: string,
  schema: z.ZodType<TArgs>,
  text: string,
): ParsedToolArguments<TArgs> {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      success: false,
      reason: 'invalid-json',
      message: `Invalid arguments for tool "${toolName}": not valid JSON (${detail}). Send the arguments as one JSON object.`,
    };
  }
  const result = schema.safeParse(value);
  if (result.success) return { success: true, args: result.data };
  const issues = result.error.issues.map((issue) => `- ${formatPath(issue.path)}: ${issue.message}`);
  return {
    success: false,
    reason: 'invalid-arguments',
    message: `Invalid arguments for tool "${toolName}":\n${issues.join('\n')}\nFix these arguments and call the tool again.`,
  };
}
