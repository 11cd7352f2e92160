import { weftVitestConfig } from '../../vitest.shared.ts';

// The tests start real MCP servers as child processes: slow on a loaded machine.
export default weftVitestConfig();
