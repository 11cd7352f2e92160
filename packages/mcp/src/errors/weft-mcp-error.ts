/**
 * Every failure `@weft/mcp` reports, as a closed union (`error.code`).
 *
 * @example
 * ```ts
 * function report(error: unknown): void {
 *   if (WeftMcpError.isInstance(error) && error.code === 'CONNECTION_FAILED') console.error(error.message);
 * }
 * ```
 */
export type WeftMcpErrorCode =
  /** A bad option or argument (the message names it). */
  | 'INVALID_ARGUMENT'
  /** The MCP server could not be started or reached. */
  | 'CONNECTION_FAILED'
  /** The server answered a request with an error, or the connection broke during it. */
  | 'REQUEST_FAILED'
  /** The toolset or server was closed. */
  | 'CLOSED';

/** The marker every Weft error carries (shared with `WeftError` of `@weft/compose`). */
const weftMarker = Symbol.for('weft.error');
/** The marker that tells an MCP error from other Weft errors. */
const mcpMarker = Symbol.for('weft.mcp.error');

/**
 * The base error of `@weft/mcp`, shaped like `WeftError` of `@weft/compose`: a readonly `code` from a
 * closed union, a `cause`, and a `Symbol.for` marker so {@link WeftMcpError.isInstance} also recognises
 * errors thrown by a duplicate copy of this package. (Named apart from the SDK's own `McpError`, which
 * carries JSON-RPC error codes.)
 *
 * @example
 * ```ts
 * const toolset = mcpToolset({ url: 'http://127.0.0.1:9/mcp' }); // nothing listens there
 * try {
 *   await toolset.tools();
 * } catch (error) {
 *   if (WeftMcpError.isInstance(error) && error.code === 'CONNECTION_FAILED') console.error(error.message);
 * }
 * ```
 */
export class WeftMcpError extends Error {
  /** What went wrong, from a closed union. */
  readonly code: WeftMcpErrorCode;
  readonly [weftMarker] = true;
  readonly [mcpMarker] = true;

  constructor(code: WeftMcpErrorCode, message: string, options?: { readonly cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = 'WeftMcpError';
  }

  /** True for any error of this package, even one thrown by another copy of it. */
  static isInstance(value: unknown): value is WeftMcpError {
    return (
      typeof value === 'object' && value !== null && (value as { [mcpMarker]?: unknown })[mcpMarker] === true
    );
  }
}

/** The message of anything thrown. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
