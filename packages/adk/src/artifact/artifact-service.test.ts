import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '@weft/compose';
import { describeArtifactServiceConformance } from '../testing/artifact-service-conformance.js';
import { FileArtifactService } from './file-artifact-service.js';
import { StoreArtifactService } from './store-artifact-service.js';

describeArtifactServiceConformance('StoreArtifactService on MemoryStore', async () => {
  const store = new MemoryStore();
  return {
    service: new StoreArtifactService({ store }),
    otherWriter: async () => new StoreArtifactService({ store }),
  };
});

describeArtifactServiceConformance('FileArtifactService', async () => {
  const root = mkdtempSync(join(tmpdir(), 'weft-artifacts-'));
  return {
    service: new FileArtifactService({ root }),
    otherWriter: async () => new FileArtifactService({ root }),
    cleanup: async () => rmSync(root, { recursive: true, force: true }),
  };
});
