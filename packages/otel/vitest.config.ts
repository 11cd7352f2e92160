import { weftVitestConfig } from '../../vitest.shared.ts';

// The worker scenario starts worker processes against Redis and PostgreSQL: ten minutes only catch hangs.
export default weftVitestConfig({ testTimeout: 600_000 });
