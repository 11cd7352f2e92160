import { mergeConfig } from 'vitest/config';
import { weftVitestConfig } from '../../vitest.shared.ts';

// The site is built once by the global setup (scripts/build.ts: the generated pages, then VitePress);
// the tests read the built site. Browser tests start Chromium, so they get the long timeout.
export default mergeConfig(weftVitestConfig({ typecheck: false, testTimeout: 600_000 }), {
  test: { globalSetup: ['./test/build-site.ts'], hookTimeout: 600_000 },
});
