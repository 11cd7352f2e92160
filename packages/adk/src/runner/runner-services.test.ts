import { MemoryStore } from '@weft/compose';
import { describeRunnerServicesConformance } from '../testing/runner-services-conformance.js';

describeRunnerServicesConformance('MemoryStore', async (options) => ({ store: new MemoryStore(options) }));
