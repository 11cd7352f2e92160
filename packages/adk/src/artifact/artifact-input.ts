import { AdkError } from '../errors/adk-error.js';
import type { Artifact, ArtifactInput } from './artifact-service.js';
import { USER_ARTIFACT_PREFIX } from './artifact-service.js';

/**
 * Checks an artifact name: not empty, at most 512 characters, no NUL.
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the method and the name.
 * @example
 * ```ts
 * checkArtifactName('report.csv', 'save');
 * ```
 */
export function checkArtifactName(name: string, method: string): void {
  if (typeof name !== 'string' || name === '' || name.length > 512 || name.includes('\0')) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `artifacts.${method}: name ${JSON.stringify(name)} must be 1–512 characters without NUL`,
    );
  }
  if (name === USER_ARTIFACT_PREFIX) {
    throw new AdkError('INVALID_ARGUMENT', `artifacts.${method}: "user:" needs a name after it`);
  }
}

/** True for a user-scoped name (`user:...`). */
export function isUserArtifact(name: string): boolean {
  return name.startsWith(USER_ARTIFACT_PREFIX);
}

/**
 * The stored form of a save: bytes (copied), media type and size.
 *
 * @example
 * ```ts
 * const { data, mimeType } = artifactOf('a.txt', 0, { data: 'hi' }, Date.now()); // 'text/plain'
 * ```
 */
export function artifactOf(name: string, version: number, input: ArtifactInput, createdAt: number): Artifact {
  const text = typeof input.data === 'string';
  const data = text
    ? new TextEncoder().encode(input.data as string)
    : new Uint8Array(input.data as Uint8Array);
  return {
    name,
    version,
    data,
    mimeType: input.mimeType ?? (text ? 'text/plain' : 'application/octet-stream'),
    size: data.byteLength,
    createdAt,
    ...(input.metadata ? { metadata: input.metadata } : {}),
  };
}

/** Runs saves of one name one after another inside a process (each reads the last version first). */
export class NameLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(name) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.#tails.set(name, tail);
    void tail.then(() => {
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    });
    return next;
  }
}
