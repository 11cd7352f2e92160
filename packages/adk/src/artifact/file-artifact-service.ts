import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonValue } from '../message/message.js';
import type { SessionKey } from '../session/session.js';
import { artifactOf, checkArtifactName, isUserArtifact } from './artifact-input.js';
import type { Artifact, ArtifactInput, ArtifactService } from './artifact-service.js';

interface Meta {
  readonly mimeType: string;
  readonly createdAt: number;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

/**
 * An {@link ArtifactService} in a directory: `root/<app>/<user>/sessions/<session>/<name>/<version>/`
 * (user artifacts under `root/<app>/<user>/user/<name>/`), each version a folder holding `data` and
 * `meta.json`, every path segment percent-encoded. A version is written to a temporary folder and
 * renamed into place, and a rename onto a taken number fails — so processes sharing the directory never
 * overwrite each other's versions.
 *
 * @example
 * ```ts
 * const key = { appName: 'reports', userId: 'u1', sessionId: 's1' };
 * const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
 * const artifacts = new FileArtifactService({ root: './artifacts' });
 * await artifacts.save(key, 'chart.png', { data: png, mimeType: 'image/png' });
 * ```
 */
export class FileArtifactService implements ArtifactService {
  readonly #root: string;
  readonly #now: () => number;

  constructor(options: { readonly root: string; readonly now?: () => number }) {
    this.#root = options.root;
    this.#now = options.now ?? Date.now;
  }

  async save(key: SessionKey, name: string, input: ArtifactInput): Promise<number> {
    checkArtifactName(name, 'save');
    const folder = this.#folder(key, name);
    await mkdir(folder, { recursive: true });
    for (let attempt = 0; ; attempt++) {
      const versions = await this.versions(key, name);
      const version = versions.length === 0 ? 0 : (versions.at(-1) as number) + 1;
      const artifact = artifactOf(name, version, input, this.#now());
      const staging = join(folder, `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
      await mkdir(staging);
      await writeFile(join(staging, 'data'), artifact.data);
      const meta: Meta = {
        mimeType: artifact.mimeType,
        createdAt: artifact.createdAt,
        ...(artifact.metadata ? { metadata: artifact.metadata } : {}),
      };
      await writeFile(join(staging, 'meta.json'), JSON.stringify(meta));
      try {
        await rename(staging, join(folder, String(version)));
        return version;
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        const code = (error as { code?: string }).code;
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt > 100) throw error;
      }
    }
  }

  async load(
    key: SessionKey,
    name: string,
    options: { readonly version?: number } = {},
  ): Promise<Artifact | undefined> {
    checkArtifactName(name, 'load');
    const version = options.version ?? (await this.versions(key, name)).at(-1);
    if (version === undefined || !Number.isInteger(version) || version < 0) return undefined;
    const folder = join(this.#folder(key, name), String(version));
    try {
      const [data, meta] = await Promise.all([
        readFile(join(folder, 'data')),
        readFile(join(folder, 'meta.json'), 'utf8'),
      ]);
      const parsed = JSON.parse(meta) as Meta;
      return {
        name,
        version,
        data: new Uint8Array(data),
        mimeType: parsed.mimeType,
        size: data.byteLength,
        createdAt: parsed.createdAt,
        ...(parsed.metadata ? { metadata: parsed.metadata } : {}),
      };
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async list(key: SessionKey): Promise<string[]> {
    const names: string[] = [];
    for (const scope of [this.#scope(key, false), this.#scope(key, true)]) {
      for (const entry of await entries(scope)) {
        if ((await this.versions(key, decodeURIComponent(entry))).length > 0)
          names.push(decodeURIComponent(entry));
      }
    }
    return names.sort();
  }

  async versions(key: SessionKey, name: string): Promise<number[]> {
    checkArtifactName(name, 'versions');
    return (await entries(this.#folder(key, name)))
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .sort((a, b) => a - b);
  }

  async delete(key: SessionKey, name: string): Promise<void> {
    checkArtifactName(name, 'delete');
    await rm(this.#folder(key, name), { recursive: true, force: true });
  }

  #scope(key: SessionKey, user: boolean): string {
    const base = join(this.#root, segment(key.appName), segment(key.userId));
    return user ? join(base, 'user') : join(base, 'sessions', segment(key.sessionId));
  }

  #folder(key: SessionKey, name: string): string {
    return join(this.#scope(key, isUserArtifact(name)), segment(name));
  }
}

/** A path segment for any id: percent-encoded, with `.` encoded too (no `.`/`..`), `%` for empty. */
function segment(id: string): string {
  return id === '' ? '%' : encodeURIComponent(id).replaceAll('.', '%2E').replaceAll('*', '%2A');
}

async function entries(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((entry) => !entry.startsWith('.'));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
}
