import { weftVitestConfig } from '../../vitest.shared.ts';

// Scenario tests start worker processes against Redis and PostgreSQL: ten minutes each only catch hangs
// (a handoff scenario passed five at load average 100).
export default weftVitestConfig({ testTimeout: 600_000 });
