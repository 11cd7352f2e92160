import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { describeSemanticsCases } from '../src/testing/semantics/semantics-cases.js';

// The same cases run on SQLite and PostgreSQL through `describeDurabilityMatrix` in the store packages.
const checkpointer = new MemoryCheckpointer();
describeSemanticsCases(() => checkpointer);
