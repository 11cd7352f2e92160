import { z } from 'zod';
import { AdkError } from '../errors/adk-error.js';
import { mediaPart } from '../message/media-part.js';
import type { ContentPart } from '../message/message.js';
import { type AnyTool, tool } from '../tool/tool.js';
import { toolResult } from '../tool/tool-result.js';
import type { Artifact } from './artifact-service.js';

/** The name of the tool {@link loadArtifactsTool} makes. */
export const LOAD_ARTIFACTS_TOOL = 'load_artifacts';

/** Media types whose bytes are UTF-8 text (shown to models as text). */
export const TEXTUAL = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|csv)\b)|\+(json|xml)$/;

/**
 * The `load_artifacts` tool (Google ADK's): without names it lists the session's and the user's
 * artifacts; with names it loads their latest versions into the conversation — text as text, images,
 * audio and PDFs as media parts the model can read, other types described by size and type. Needs a
 * Runner with an `artifactService`; read-only.
 *
 * @throws AdkError `INVALID_ARGUMENT` (as the call's error result) when the Runner has no artifact service.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const sessionService = new MemorySessionService();
 * const artifactService = new StoreArtifactService({ store: new MemoryStore() });
 * const runner = new Runner({ agent: new ChatModelAgent({ name: 'analyst', model, tools: [loadArtifactsTool()] }), sessionService, artifactService });
 * ```
 */
export function loadArtifactsTool(options: { readonly maxTextCharacters?: number } = {}): AnyTool {
  const maxText = options.maxTextCharacters ?? 50_000;
  return tool({
    name: LOAD_ARTIFACTS_TOOL,
    description:
      'Lists the files (artifacts) of this conversation and of the user when called without names; loads the named ones (latest version) to read them.',
    parameters: z.object({
      names: z.array(z.string()).optional().describe('Artifact names to load; leave out to list them'),
    }),
    readOnly: true,
    async execute({ names }, context) {
      const artifacts = context.artifacts;
      if (!artifacts) {
        throw new AdkError(
          'INVALID_ARGUMENT',
          `tool "${LOAD_ARTIFACTS_TOOL}" needs a Runner with an artifactService`,
        );
      }
      if (!names || names.length === 0) return { artifacts: await artifacts.list() };
      const parts: ContentPart[] = [];
      for (const name of names) {
        const artifact = await artifacts.load(name);
        if (!artifact) parts.push({ type: 'text', text: `Artifact "${name}" does not exist.` });
        else parts.push(...partsOf(artifact, maxText));
      }
      return toolResult(parts);
    },
  }) as unknown as AnyTool;
}

function partsOf(artifact: Artifact, maxText: number): ContentPart[] {
  const title = `Artifact "${artifact.name}" (version ${artifact.version}, ${artifact.mimeType}, ${artifact.size} bytes)`;
  if (TEXTUAL.test(artifact.mimeType)) {
    const text = new TextDecoder().decode(artifact.data);
    const cut =
      text.length > maxText
        ? `${text.slice(0, maxText)}\n… [${text.length - maxText} more characters]`
        : text;
    return [{ type: 'text', text: `${title}:\n${cut}` }];
  }
  const kind = mediaKind(artifact.mimeType);
  if (!kind) return [{ type: 'text', text: `${title}: binary content, not shown.` }];
  return [
    { type: 'text', text: `${title}:` },
    mediaPart({ type: kind, mediaType: artifact.mimeType, bytes: artifact.data, filename: artifact.name }),
  ];
}

function mediaKind(mimeType: string): 'image' | 'audio' | 'file' | undefined {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType === 'application/pdf') return 'file';
  return undefined;
}
