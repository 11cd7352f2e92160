import { createHash, randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * A UUID v7: time-ordered (ids made later sort after earlier ones, also within one millisecond in this
 * process), as the reference server makes run and thread ids.
 */
export function uuid7(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    counter += 1;
    ms = lastMs;
  } else {
    counter = 0;
    lastMs = ms;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  // 12 bits of counter in rand_a keep ids of one millisecond in order.
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return format(bytes);
}

/** A name-based UUID v5 (SHA-1) in `namespace`, e.g. the default assistant id of a graph. */
export function uuid5(name: string, namespace: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name)
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return format(bytes);
}

/** The namespace the reference server derives graphs' default assistant ids in. */
export const GRAPH_NAMESPACE = '6ba7b821-9dad-11d1-80b4-00c04fd430c8';

function format(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID (any version). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
