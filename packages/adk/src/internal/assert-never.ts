/**
 * Marks a branch that the types say is unreachable; throws if it is reached anyway.
 *
 * @example
 * ```ts
 * type Shape = { kind: 'circle'; radius: number } | { kind: 'square'; side: number };
 * function area(shape: Shape): number {
 *   switch (shape.kind) {
 *     case 'circle': return Math.PI * shape.radius ** 2;
 *     case 'square': return shape.side ** 2;
 *     default: return assertNever(shape); // a third kind of Shape fails to compile here
 *   }
 * }
 * ```
 */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
