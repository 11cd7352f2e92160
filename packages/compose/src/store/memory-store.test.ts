import { describeStoreConformance } from '../testing/store-conformance.js';
import { MemoryStore } from './memory-store.js';

describeStoreConformance('MemoryStore', async (options) => ({ store: new MemoryStore(options) }));
