import { describeMigrationConformance } from '../../testing/migration-conformance.js';
import { describeRetentionConformance } from '../../testing/retention-conformance.js';
import { MemoryCheckpointer } from '../memory-checkpointer.js';

describeRetentionConformance('MemoryCheckpointer', async () => ({ checkpointer: new MemoryCheckpointer() }));
describeMigrationConformance('MemoryCheckpointer', async () => ({ checkpointer: new MemoryCheckpointer() }));
