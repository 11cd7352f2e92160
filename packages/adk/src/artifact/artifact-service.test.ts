import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '@weft/compose';
import { describeArtifactServiceConformance } from '../testing/artifact-service-conformance.js';
import { FileArtifactService } from './file-artifact-service.js';
import { StoreArtifactService } from './store-artifact-service.js';

describeArtifactServiceConformance('StoreArtifactService on MemoryStore', async () => ({
  service: new StoreArtifactService({ store: new MemoryStore() }),
}));

describeArtifactServiceConformance('FileArtifactService', async () => {
  const root = mkdtempSync(join(tmpdir(), 'weft-artifacts-'));
  return {
    service: new FileArtifactService({ root }),
    cleanup: async () => rmSync(root, { recursive: true, force: true }),
  };
});
