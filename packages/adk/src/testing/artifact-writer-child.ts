import { createInterface } from 'node:readline';
import type { ArtifactService } from '../artifact/artifact-service.js';

/** The session the cross-process artifact suite saves into. */
export const WRITER_SESSION = { appName: 'reports', userId: 'u1', sessionId: 's1' } as const;

/**
 * The body of a child process of `describeArtifactSavesAcrossProcesses` (in
 * `@weft/adk/testing/conformance`): opens the service, prints `ready`, waits for `go` on stdin, saves
 * `shared.txt` `count` times (`writer <label> save <i>`) and prints the versions it was given as JSON.
 * Its arguments are the last two of `process.argv`: the writer's label and the count.
 *
 * @example
 * ```ts
 * // test/artifacts/artifact-writer.ts <db file> <label> <count>
 * import { StoreArtifactService } from '@weft/adk';
 * import { MemoryStore } from '@weft/compose';
 * await runArtifactWriterChild(async () => new StoreArtifactService({ store: new MemoryStore() }));
 * ```
 */
export async function runArtifactWriterChild(open: () => Promise<ArtifactService>): Promise<void> {
  const [label, count] = process.argv.slice(-2);
  const service = await open();
  const lines = createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => lines.on('line', (line) => line === 'go' && resolve()));
  process.stdout.write('ready\n');
  await go;
  lines.close();
  const versions: number[] = [];
  for (let i = 0; i < Number(count); i++)
    versions.push(await service.save(WRITER_SESSION, 'shared.txt', { data: `writer ${label} save ${i}` }));
  process.stdout.write(`${JSON.stringify(versions)}\n`);
}
