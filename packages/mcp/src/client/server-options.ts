/**
 * An MCP server started as a child process and spoken to over its stdin/stdout.
 *
 * @example
 * ```ts
 * const server: McpStdioServer = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] };
 * ```
 */
export interface McpStdioServer {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a minimal safe environment (PATH, HOME...), not to all of this process's variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** The child's working directory (default: this process's). */
  readonly cwd?: string;
}

/**
 * A remote MCP server reached over Streamable HTTP, falling back to the older HTTP+SSE transport when
 * the server does not speak Streamable HTTP.
 *
 * @example
 * ```ts
 * const token = process.env.MCP_TOKEN;
 * const server: McpHttpServer = { url: 'https://mcp.example.com/mcp', headers: { authorization: `Bearer ${token}` } };
 * ```
 */
export interface McpHttpServer {
  readonly url: string | URL;
  /** Sent with every request (e.g. an `authorization` header). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Where an MCP server is: a command to start (stdio) or a URL (Streamable HTTP / SSE).
 *
 * @example
 * ```ts
 * const where: McpServerLocation = process.env.MCP_URL ? { url: process.env.MCP_URL } : { command: 'my-server' };
 * ```
 */
export type McpServerLocation = McpStdioServer | McpHttpServer;

/** True for a stdio server location. */
export function isStdio(location: McpServerLocation): location is McpStdioServer {
  return 'command' in location && typeof location.command === 'string';
}
