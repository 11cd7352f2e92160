import { describe } from 'vitest';
import { describeBulkUpdateCases } from './bulk-update-cases.js';
import { describeFailedTaskCases } from './failed-task-cases.js';
import { describeFirstWriteCases } from './first-write-cases.js';
import { describeFunctionalCases } from './functional-cases.js';
import { describeListUpdateCases } from './list-update-cases.js';
import { describeParentCommandCases } from './parent-command-cases.js';
import { describePausedStepCases } from './paused-step-cases.js';
import { describeReplayCases } from './replay-cases.js';
import { describeResumeCases } from './resume-cases.js';
import { describeSubgraphMemoryCases } from './subgraph-memory-cases.js';
import { describeSubgraphOutputCases } from './subgraph-output-cases.js';
import { describeSubgraphStateCases } from './subgraph-state-cases.js';
import type { StoreOf } from './threads.js';
import { describeUpdateStateCases } from './update-state-cases.js';

/**
 * Registers the resume / time-travel / subgraph semantics cases (the behaviour users of the reference
 * engine expect) against the store `store()` returns; each case uses its own threads.
 */
export function describeSemanticsCases(store: StoreOf): void {
  describe('semantics', () => {
    describeFirstWriteCases(store);
    describeUpdateStateCases(store);
    describeResumeCases(store);
    describePausedStepCases(store);
    describeListUpdateCases(store);
    describeBulkUpdateCases(store);
    describeReplayCases(store);
    describeSubgraphOutputCases(store);
    describeFailedTaskCases(store);
    describeSubgraphMemoryCases(store);
    describeParentCommandCases(store);
    describeSubgraphStateCases(store);
    describeFunctionalCases(store);
  });
}
