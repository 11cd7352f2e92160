import { MemoryStore } from '@weft/compose';
import { describeMemoryServiceConformance } from '../testing/memory-service-conformance.js';

describeMemoryServiceConformance('MemoryStore', async (options) => ({ store: new MemoryStore(options) }));
