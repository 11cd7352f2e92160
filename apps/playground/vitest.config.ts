import { mergeConfig } from 'vitest/config';
import { weftVitestConfig } from '../../vitest.shared.ts';

// Type tests are off: the web app has its own tsconfig (`tsc -p web/tsconfig.json`). The browser tests
// need the built web app (built once by the global setup) and get a longer timeout.
export default mergeConfig(weftVitestConfig({ typecheck: false, testTimeout: 600_000 }), {
  test: { globalSetup: ['./test/e2e/build-web.ts'], hookTimeout: 300_000 },
});
