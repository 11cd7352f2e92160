/**
 * Checksums of stored payloads. The engine stamps every checkpoint and task-writes payload it writes with
 * the SHA-256 of the payload's UTF-8 bytes and checks it on every read, so a payload changed at rest
 * (a bit flip, a hand edit, a truncated copy) is a `CHECKPOINT` error instead of wrong state. SHA-256 of
 * node:crypto costs a quarter of the `JSON.stringify` that produced the payload on large states (and
 * about 2 µs on a small one); a store can verify it in SQL too, e.g. PostgreSQL
 * `'sha256:' || encode(sha256(convert_to(payload, 'UTF8')), 'hex')`.
 *
 * A checksum detects corruption, not a forger: whoever can rewrite a payload can rewrite its checksum.
 */
import { createHash } from 'node:crypto';

/** The prefix of the checksums this version writes (the algorithm, so another can follow). */
const PREFIX = 'sha256:';

/**
 * The checksum stored with a payload: `sha256:` and the hex SHA-256 of its UTF-8 bytes.
 *
 * @example
 * ```ts
 * payloadChecksum('{}'); // 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
 * ```
 */
export function payloadChecksum(payload: string): string {
  return PREFIX + createHash('sha256').update(payload, 'utf8').digest('hex');
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
