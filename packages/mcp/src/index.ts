export type { McpListKind } from './client/mcp-connection.js';
export { type McpToolset, type McpToolsetOptions, mcpToolset } from './client/mcp-toolset.js';
export {
  type McpResourceInstructionOptions,
  mcpResourceInstruction,
} from './client/resource-instruction.js';
export type { McpPromptInfo, McpResourceContents, McpResourceInfo } from './client/resources-prompts.js';
export type { McpHttpServer, McpServerLocation, McpStdioServer } from './client/server-options.js';
export { WeftMcpError, type WeftMcpErrorCode } from './errors/weft-mcp-error.js';
export {
  LOADED_TOOLS_KEY,
  SEARCH_TOOLS,
  type ToolSearch,
  type ToolSearchOptions,
  toolSearch,
} from './search/tool-search.js';
export type { AnyCompiledGraph } from './server/graph-target.js';
export type { McpHttpEndpoint, McpListenOptions } from './server/http-listener.js';
export type { ToolApprovalPolicy } from './server/mcp-server-factory.js';
export { type ServedGraph, type ServeMcpOptions, serveMcp, type WeftMcpServer } from './server/serve-mcp.js';
