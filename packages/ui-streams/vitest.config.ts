import { weftVitestConfig } from '../../vitest.shared.ts';

// The tests run real AI SDK and AG-UI clients against loopback servers.
export default weftVitestConfig();
