/**
 * Checksums of stored payloads. The engine stamps every checkpoint and task-writes payload it writes with
 * the SHA-256 of the payload's UTF-8 bytes and checks it on every read, so a payload changed at rest
 * (a bit flip, a hand edit, a truncated copy) is a `CHECKPOINT` error instead of wrong state. SHA-256 of
 * node:crypto costs a quarter of the `JSON.stringify` that produced the payload on large states (and
 * about 2 µs on a small one); a store can verify it in SQL too, e.g. PostgreSQL
 * `'sha256:' || encode(sha256(convert_to(payload, 'UTF8')), 'hex')`.
 *
 * In Node the hash comes from node:crypto's one-shot `hash` (or `createHash` before Node 20.12; found through `process.getBuiltinModule`, so no bundler sees a
 * `node:` import); where that is missing (browsers, workers) from `@noble/hashes`, a pure-JS SHA-256 that
 * gives the same bytes.
 *
 * A checksum detects corruption, not a forger: whoever can rewrite a payload can rewrite its checksum.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** The prefix of the checksums this version writes (the algorithm, so another can follow). */
const PREFIX = 'sha256:';

type HexSha256 = (payload: string) => string;

/** SHA-256 in pure JS: the same digest as node:crypto's, for runtimes without it. */
export const portableSha256: HexSha256 = (payload) => bytesToHex(sha256(utf8ToBytes(payload)));

function nodeSha256(): HexSha256 | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = host?.getBuiltinModule?.('node:crypto') as typeof import('node:crypto') | undefined;
  if (crypto === undefined) return undefined;
  // The one-shot `crypto.hash` (Node ≥ 20.12) skips the Hash object `createHash` builds per call: about a
  // seventh of the cost on a small payload, the same digest.
  const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
  if (oneShot !== undefined) return (payload) => oneShot('sha256', payload, 'hex');
  if (crypto.createHash === undefined) return undefined;
  return (payload) => crypto.createHash('sha256').update(payload, 'utf8').digest('hex');
}

const hexSha256: HexSha256 = nodeSha256() ?? portableSha256;

/**
 * The checksum stored with a payload: `sha256:` and the hex SHA-256 of its UTF-8 bytes.
 *
 * @example
 * ```ts
 * payloadChecksum('{}'); // 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
 * ```
 */
export function payloadChecksum(payload: string): string {
  return PREFIX + hexSha256(payload);
}

/**
 * Whether a stored payload still matches its checksum. A record without a checksum (written before
 * checksums existed) matches; a checksum of an unknown algorithm does not.
 *
 * @example
 * ```ts
 * checksumMatches('{}', payloadChecksum('{}')); // true
 * checksumMatches('{ }', payloadChecksum('{}')); // false
 * checksumMatches('{}', undefined); // true: an old row
 * ```
 */
export function checksumMatches(payload: string, checksum: string | undefined): boolean {
  return checksum === undefined || checksum === payloadChecksum(payload);
}
