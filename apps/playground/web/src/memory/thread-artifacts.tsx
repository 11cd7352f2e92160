import { useEffect, useState } from 'react';
import type { ThreadArtifactsInfo } from '../../../src/shared/memory-wire.ts';
import { memoryApi } from './memory-api.ts';

/** The artifacts of the selected thread's session (and its user's); key it by the run to reload after one. */
export function ThreadArtifacts(props: { readonly threadId: string }) {
  const [info, setInfo] = useState<ThreadArtifactsInfo | undefined>();
  const { threadId } = props;
  useEffect(() => {
    let live = true;
    memoryApi.artifacts(threadId).then(
      (next) => live && setInfo(next),
      () => live && setInfo(undefined),
    );
    return () => {
      live = false;
    };
  }, [threadId]);
  if (!info?.enabled) return null;
  return (
    <section className="thread-artifacts" data-testid="thread-artifacts">
      <h3>Artifacts</h3>
      {info.artifacts.length === 0 && <p className="muted">None yet.</p>}
      {info.artifacts.map((artifact) => (
        <details key={artifact.name} data-testid="artifact" data-name={artifact.name}>
          <summary>
            {artifact.name}{' '}
            <span className="muted">
              v{artifact.versions.at(-1)} · {artifact.mimeType} · {artifact.size} B
            </span>
          </summary>
          {artifact.text !== undefined && <pre>{artifact.text}</pre>}
        </details>
      ))}
    </section>
  );
}
