// Small helpers the routes share: reading a capped JSON body, checking fields, answering errors.
import type { JsonValue } from '@weft/compose';
import type { Context } from 'hono';
import { WeftServerError } from '../errors/server-error.js';
import type { JsonObject } from '../records/record-types.js';
import { Refusal, readBody } from './request-guard.js';

/** Reads the request body as a JSON object (`{}` when empty), refusing bodies over `limit` bytes. */
export async function jsonBody(c: Context, limit: number): Promise<JsonObject> {
  const text = await readBody(c.req.raw, limit);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WeftServerError('INVALID_ARGUMENT', `the body is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null)
    throw new WeftServerError('INVALID_ARGUMENT', 'the body must be a JSON object');
  return parsed as JsonObject;
}

/** Reads the body as a JSON array (for `/runs/batch`). */
export async function jsonArray(c: Context, limit: number): Promise<JsonObject[]> {
  const text = await readBody(c.req.raw, limit);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WeftServerError('INVALID_ARGUMENT', `the body is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new WeftServerError('INVALID_ARGUMENT', 'the body must be a JSON array');
  return parsed as JsonObject[];
}

const bad = (field: string, expected: string, got: unknown) =>
  new WeftServerError('INVALID_ARGUMENT', `"${field}" must be ${expected}, got ${JSON.stringify(got)}`);

/** Field readers: each returns the value or `undefined` (absent or null), and throws naming the field. */
export const field = {
  string(body: JsonObject, name: string): string | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw bad(name, 'a string', value);
    return value;
  },
  number(body: JsonObject, name: string): number | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(name, 'a number', value);
    return value;
  },
  boolean(body: JsonObject, name: string): boolean | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw bad(name, 'a boolean', value);
    return value;
  },
  object(body: JsonObject, name: string): JsonObject | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw bad(name, 'an object', value);
    return value as JsonObject;
  },
  strings(body: JsonObject, name: string): string[] | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
      throw bad(name, 'an array of strings', value);
    return value as string[];
  },
  oneOf<T extends string>(body: JsonObject, name: string, allowed: readonly T[]): T | undefined {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || !allowed.includes(value as T))
      throw bad(name, `one of ${allowed.join(', ')}`, value);
    return value as T;
  },
  any(body: JsonObject, name: string): JsonValue | undefined {
    const value = body[name];
    return value === null ? undefined : value;
  },
};

/** The answer to a failed request: `{ error, message }` with the error's status. */
export function errorResponse(error: unknown): Response {
  if (error instanceof Refusal)
    return Response.json({ error: error.code, message: error.message }, { status: error.status });
  if (WeftServerError.isInstance(error))
    return Response.json({ error: error.code, message: error.message }, { status: error.status });
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (
    code === 'INVALID_ARGUMENT' ||
    code === 'INPUT_INVALID' ||
    (error as Error | null)?.name === 'InputValidationError'
  )
    return Response.json({ error: 'INVALID_ARGUMENT', message }, { status: 422 });
  if (code === 'NOT_FOUND') return Response.json({ error: 'NOT_FOUND', message }, { status: 404 });
  return Response.json({ error: 'INTERNAL', message: 'internal error' }, { status: 500 });
}

/** Keeps only the fields `select` names (all of them without it). */
export function selected<T extends object>(record: T, select: readonly string[] | undefined): Partial<T> {
  if (!select || select.length === 0) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => select.includes(key))) as Partial<T>;
}

/** Whether `record` holds every key/value of `filter` (nested objects compared the same way). */
export function contains(record: unknown, filter: JsonObject | undefined): boolean {
  if (!filter) return true;
  if (typeof record !== 'object' || record === null) return false;
  const holder = record as Record<string, unknown>;
  return Object.entries(filter).every(([key, value]) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? contains(holder[key], value as JsonObject)
      : JSON.stringify(holder[key]) === JSON.stringify(value),
  );
}
