import { weftVitestConfig } from '../../vitest.shared.ts';

// The worker scenario starts worker processes against Redis and PostgreSQL: allow it a minute and a half.
export default weftVitestConfig({ testTimeout: 600_000 });
