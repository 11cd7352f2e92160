/**
 * Marks a branch that the types say is unreachable; throws if it is reached anyway.
 *
 * @example
 * ```ts
 * function partText(part: ContentPart): string {
 *   switch (part.type) {
 *     case 'text': return part.text;
 *     case 'json': return JSON.stringify(part.value);
 *     case 'image': return '';
 *     default: return assertNever(part);
 *   }
 * }
 * ```
 */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
