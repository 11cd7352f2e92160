import { afterEach, describe, expect, it } from 'vitest';
import type { ArtifactService } from '../artifact/artifact-service.js';

/**
 * What an artifact-service conformance factory returns: a fresh, empty service and how to dispose of it.
 *
 * @example
 * ```ts
 * const fixture: ArtifactServiceFixture = { service: new StoreArtifactService({ store: new MemoryStore() }) };
 * ```
 */
export interface ArtifactServiceFixture {
  readonly service: ArtifactService;
  /**
   * A second writer over the same storage, as another process would open it (another instance; for a
   * SQL store another connection): saves through both must never take one version twice.
   */
  readonly otherWriter?: () => Promise<ArtifactService>;
  /** Runs after each test: close stores, delete folders. */
  readonly cleanup?: () => Promise<void>;
}

const key = { appName: 'reports', userId: 'u1', sessionId: 's1' };
const text = (data: Uint8Array | undefined) => (data ? new TextDecoder().decode(data) : undefined);

/**
 * Registers the shared {@link ArtifactService} conformance suite; every implementation must pass it.
 *
 * Covered: versions from 0, latest and given versions, text and bytes (1 MB) with media types and
 * metadata, `versions`, `list` (session names plus the user's `user:` names; other sessions, users and
 * apps kept apart), `delete` (numbering restarts), names with `/`, `.`, `%`, `:` and unicode kept apart,
 * concurrent saves of one name getting distinct versions — also through two writers over one storage
 * (`otherWriter`: another instance or connection), none overwritten — and typed errors for bad names.
 *
 * @example
 * ```ts
 * import { describeArtifactServiceConformance } from '@weft/adk/testing/conformance';
 *
 * describeArtifactServiceConformance('StoreArtifactService', async () => ({
 *   service: new StoreArtifactService({ store: new MemoryStore() }),
 * }));
 * ```
 */
export function describeArtifactServiceConformance(
  name: string,
  factory: () => Promise<ArtifactServiceFixture>,
): void {
  describe(`${name} (artifact conformance)`, () => {
    const open: ArtifactServiceFixture[] = [];
    const fixtureOf = async () => {
      const fixture = await factory();
      open.push(fixture);
      return fixture;
    };
    const make = async () => (await fixtureOf()).service;
    afterEach(async () => {
      for (const fixture of open.splice(0)) await fixture.cleanup?.();
    });

    it('numbers versions from 0 and loads the latest or a given one', async () => {
      const artifacts = await make();
      expect(await artifacts.save(key, 'summary.md', { data: '# v0', mimeType: 'text/markdown' })).toBe(0);
      expect(await artifacts.save(key, 'summary.md', { data: '# v1', metadata: { by: 'writer' } })).toBe(1);
      const latest = await artifacts.load(key, 'summary.md');
      expect(latest).toMatchObject({ name: 'summary.md', version: 1, mimeType: 'text/plain', size: 4 });
      expect(latest?.metadata).toEqual({ by: 'writer' });
      expect(text(latest?.data)).toBe('# v1');
      const first = await artifacts.load(key, 'summary.md', { version: 0 });
      expect(first).toMatchObject({ version: 0, mimeType: 'text/markdown' });
      expect(text(first?.data)).toBe('# v0');
      expect(await artifacts.versions(key, 'summary.md')).toEqual([0, 1]);
      expect(await artifacts.load(key, 'summary.md', { version: 7 })).toBeUndefined();
      expect(await artifacts.load(key, 'missing')).toBeUndefined();
      expect(await artifacts.versions(key, 'missing')).toEqual([]);
    });

    it('keeps bytes exactly (1 MB) with the default binary type', async () => {
      const artifacts = await make();
      const bytes = new Uint8Array(1024 * 1024).map((_, i) => (i * 31) % 256);
      await artifacts.save(key, 'blob.bin', { data: bytes });
      const loaded = await artifacts.load(key, 'blob.bin');
      expect(loaded?.mimeType).toBe('application/octet-stream');
      expect(loaded?.size).toBe(bytes.byteLength);
      expect(Buffer.compare(Buffer.from(loaded?.data ?? []), Buffer.from(bytes))).toBe(0);
      bytes[0] = 255;
      expect((await artifacts.load(key, 'blob.bin'))?.data[0]).toBe(0);
    });

    it('lists session names with the user’s names; other sessions, users and apps are apart', async () => {
      const artifacts = await make();
      await artifacts.save(key, 'draft.txt', { data: 'mine' });
      await artifacts.save(key, 'user:profile.json', { data: '{}', mimeType: 'application/json' });
      expect(await artifacts.list(key)).toEqual(['draft.txt', 'user:profile.json']);
      const otherSession = { ...key, sessionId: 's2' };
      expect(await artifacts.list(otherSession)).toEqual(['user:profile.json']);
      expect(await artifacts.load(otherSession, 'draft.txt')).toBeUndefined();
      expect(text((await artifacts.load(otherSession, 'user:profile.json'))?.data)).toBe('{}');
      expect(await artifacts.list({ ...key, userId: 'u2' })).toEqual([]);
      expect(await artifacts.list({ ...key, appName: 'other' })).toEqual([]);
    });

    it('deletes every version; numbering starts again', async () => {
      const artifacts = await make();
      await artifacts.save(key, 'a.txt', { data: '1' });
      await artifacts.save(key, 'a.txt', { data: '2' });
      await artifacts.delete(key, 'a.txt');
      await artifacts.delete(key, 'never-saved');
      expect(await artifacts.load(key, 'a.txt')).toBeUndefined();
      expect(await artifacts.list(key)).toEqual([]);
      expect(await artifacts.save(key, 'a.txt', { data: '3' })).toBe(0);
    });

    it('keeps names and ids that an encoding could confuse apart', async () => {
      const artifacts = await make();
      const names = ['a.b', 'a%2Eb', 'dir/file.txt', '..', 'naïve 文件', 'a:b', 'user:a.b'];
      for (const [index, name] of names.entries()) await artifacts.save(key, name, { data: String(index) });
      expect(await artifacts.list(key)).toEqual([...names].sort());
      for (const [index, name] of names.entries())
        expect(text((await artifacts.load(key, name))?.data)).toBe(String(index));
      await artifacts.save({ ...key, sessionId: 's.1' }, 'x', { data: 'dot' });
      await artifacts.save({ ...key, sessionId: 's%2E1' }, 'x', { data: 'escaped' });
      expect(text((await artifacts.load({ ...key, sessionId: 's.1' }, 'x'))?.data)).toBe('dot');
    });

    it('gives concurrent saves of one name distinct versions', async () => {
      const artifacts = await make();
      const versions = await Promise.all(
        Array.from({ length: 8 }, (_, i) => artifacts.save(key, 'log.txt', { data: `line ${i}` })),
      );
      expect([...versions].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(await artifacts.versions(key, 'log.txt')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    });

    it('gives two writers of one storage distinct versions of one name: none is overwritten', async () => {
      const fixture = await fixtureOf();
      const writers = [fixture.service, fixture.otherWriter ? await fixture.otherWriter() : fixture.service];
      const saves = writers.flatMap((writer, w) =>
        Array.from({ length: 10 }, (_, i) =>
          writer.save(key, 'shared.txt', { data: `writer ${w} save ${i}` }),
        ),
      );
      const versions = await Promise.all(saves);
      expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      const kept = await Promise.all(
        versions.map(async (version) =>
          text((await fixture.service.load(key, 'shared.txt', { version }))?.data),
        ),
      );
      // every save is still there, under the version its writer was told
      expect(kept).toEqual(
        writers.flatMap((_, w) => Array.from({ length: 10 }, (_, i) => `writer ${w} save ${i}`)),
      );
    });

    it('rejects bad names', async () => {
      const artifacts = await make();
      for (const bad of ['', 'user:', 'a\0b', 'x'.repeat(513)])
        await expect(artifacts.save(key, bad, { data: 'x' })).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
        });
    });
  });
}
