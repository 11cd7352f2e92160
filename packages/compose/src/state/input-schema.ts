import { type ZodObject, type ZodType, z } from 'zod';
import type { AnyReducer } from './reducers.js';

/**
 * The schema of a state graph's input (and of `updateState` values): every key optional and unknown
 * keys rejected. Keys with a reducer take the reducer's update: an item or a list for
 * `appendReducer`, a number for `sumReducer`, a partial object for `mergeReducer`, anything for a
 * custom reducer (it receives the value as is).
 */
export function updateSchema(
  schema: ZodObject,
  reducers: Readonly<Record<string, AnyReducer | undefined>>,
): ZodObject {
  const shape: Record<string, ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, ZodType>)) {
    const reducer = reducers[key] as (AnyReducer & { reducerKind?: string }) | undefined;
    shape[key] = (reducer ? reducerUpdate(field, reducer.reducerKind) : field).optional();
  }
  return z.object(shape).strict();
}

function reducerUpdate(field: ZodType, kind: string | undefined): ZodType {
  const inner = unwrap(field);
  switch (kind) {
    case 'append':
      return inner instanceof z.ZodArray ? z.union([inner, inner.element as ZodType]) : z.unknown();
    case 'sum':
      return z.number();
    case 'merge':
      return inner instanceof z.ZodObject ? inner.partial() : z.record(z.string(), z.unknown());
    default:
      return z.unknown();
  }
}

function unwrap(field: ZodType): ZodType {
  let current: ZodType = field;
  while (
    current instanceof z.ZodDefault ||
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable
  ) {
    current = current.unwrap() as ZodType;
  }
  return current;
}
