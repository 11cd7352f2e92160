// The reference server ships no type declarations; the tests use its server factory.
declare module '@modelcontextprotocol/server-everything/dist/server/index.js' {
  import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
  export function createServer(): { server: McpServer; cleanup: (sessionId?: string) => void };
}
