import type { PostgresTables } from './postgres-schema.js';

/**
 * The prefix of the prepared-statement names of one table set: a short, stable hash (FNV-1a, 32 bits) of
 * its qualified names, so stores on different schemas or prefixes never reuse each other's statements on
 * a shared connection.
 *
 * @example
 * ```ts
 * const tables = postgresTables('public', 'weft_');
 * const name = `${statementPrefix(tables)}_put`; // 'weft_1x2y3z_put'
 * statementPrefix(postgresTables('agents', 'weft_')) === statementPrefix(tables); // false: other tables
 * ```
 */
export function statementPrefix(tables: PostgresTables): string {
  const text = tables.checkpoints;
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value = Math.imul(value ^ text.charCodeAt(index), 0x01000193) >>> 0;
  }
  return `weft_${value.toString(36)}`;
}
