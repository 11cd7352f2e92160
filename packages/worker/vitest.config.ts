import { weftVitestConfig } from '../../vitest.shared.ts';

// Scenario tests start worker processes against Redis and PostgreSQL: allow them a minute each.
export default weftVitestConfig({ testTimeout: 300_000 });
