import { weftVitestConfig } from '../../vitest.shared.ts';

export default weftVitestConfig();
