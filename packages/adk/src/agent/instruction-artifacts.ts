import type { ArtifactService } from '../artifact/artifact-service.js';
import { TEXTUAL } from '../artifact/load-artifacts-tool.js';
import { AdkError } from '../errors/adk-error.js';
import type { SessionKey } from '../session/session.js';

/**
 * The loader an instruction's `{artifact.name}` placeholders read through: the latest version of a
 * session's artifact (a `user:` name: the user's), as UTF-8 text; `undefined` when it does not exist.
 *
 * @throws AdkError `INVALID_ARGUMENT` (when loading) for an artifact whose media type is not text.
 * @example
 * ```ts
 * const artifacts = new StoreArtifactService({ store: new MemoryStore() });
 * const key = { appName: 'writer', userId: 'u1', sessionId: 's1' };
 * await artifacts.save(key, 'style.md', { data: 'Be brief.', mimeType: 'text/markdown' });
 * const text = await instructionArtifacts(artifacts, key, 'writer')('style.md'); // 'Be brief.'
 * ```
 */
export function instructionArtifacts(
  service: ArtifactService,
  key: SessionKey,
  agentName: string,
): (name: string) => Promise<string | undefined> {
  return async (name) => {
    const artifact = await service.load(key, name);
    if (artifact === undefined) return undefined;
    if (!TEXTUAL.test(artifact.mimeType))
      throw new AdkError(
        'INVALID_ARGUMENT',
        `the instruction of agent "${agentName}" uses {artifact.${name}}, but "${name}" is ${artifact.mimeType}; only text artifacts can be put in an instruction (offer it with loadArtifactsTool instead)`,
      );
    return new TextDecoder().decode(artifact.data);
  };
}
