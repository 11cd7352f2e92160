import { StoreArtifactService } from '@weft/adk';
import { describeArtifactServiceConformance } from '@weft/adk/testing/conformance';
import { SqliteStore } from './sqlite-store.js';

describeArtifactServiceConformance('StoreArtifactService on SqliteStore', async () => {
  const store = new SqliteStore();
  return { service: new StoreArtifactService({ store }), cleanup: () => store.close() };
});
