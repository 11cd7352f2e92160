import { StoreArtifactService } from '@weft/adk';
import { MemoryStore } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { readFileTool, searchTools } from '../src/deep/read-tools.js';
import { writeTools } from '../src/deep/write-tools.js';
import { ArtifactBackend, BackendError } from '../src/index.js';
import { call } from './helpers.js';

const session = { appName: 'docs', userId: 'u1', sessionId: 's1' };

describe('ArtifactBackend', () => {
  test('the file tools work on artifacts; each write is a new version', async () => {
    const artifacts = new StoreArtifactService({ store: new MemoryStore() });
    const backend = new ArtifactBackend({ artifacts, session });
    const [ls] = searchTools(backend);
    const [write, edit] = writeTools(backend);
    const read = readFileTool(backend);
    await call(write!, { path: 'docs/plan.md', content: 'a b' });
    await call(edit!, { path: '/docs/plan.md', old_string: 'b', new_string: 'c' });
    await call(write!, { path: '/notes.txt', content: 'hi' });
    expect((await call(ls!, {})).text).toBe('/docs/\n/notes.txt (2 bytes)');
    expect((await call(read, { path: '/docs/plan.md' })).text).toBe('     1\ta c');
    expect(await artifacts.versions(session, '/docs/plan.md')).toEqual([0, 1]);
    const first = await artifacts.load(session, '/docs/plan.md', { version: 0 });
    expect(new TextDecoder().decode(first?.data)).toBe('a b');
    expect(await backend.files('/')).toEqual(['/docs/plan.md', '/notes.txt']);
  });

  test('keeps directory rules and scopes apart', async () => {
    const artifacts = new StoreArtifactService({ store: new MemoryStore() });
    const backend = new ArtifactBackend({ artifacts, session });
    const shared = new ArtifactBackend({
      artifacts,
      session: { ...session, sessionId: 's2' },
      scope: 'user',
    });
    await backend.write('/a/b.txt', 'x');
    await expect(backend.write('/a', 'y')).rejects.toBeInstanceOf(BackendError);
    await expect(backend.write('/a/b.txt/c', 'y')).rejects.toMatchObject({ reason: 'NOT_A_DIRECTORY' });
    await expect(backend.read('/a')).rejects.toMatchObject({ reason: 'NOT_A_FILE' });
    await expect(backend.read('/nope')).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    await shared.write('/style.md', 'terse');
    expect(await backend.files('/')).toEqual(['/a/b.txt']);
    expect(await shared.files('/')).toEqual(['/style.md']);
    expect(await artifacts.list(session)).toEqual(['/a/b.txt', 'user:/style.md']);
    const other = new ArtifactBackend({ artifacts, session: { ...session, sessionId: 's3' } });
    expect(await other.files('/')).toEqual([]);
  });
});
