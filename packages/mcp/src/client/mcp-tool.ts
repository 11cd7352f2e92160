import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type AnyTool, jsonSchemaTool, type ToolContext, toolResult } from '@weft/adk';
import { describe, WeftMcpError } from '../errors/weft-mcp-error.js';
import type { McpConnection } from './mcp-connection.js';
import { type McpCallResult, resultToParts } from './result-content.js';

/** A tool as `tools/list` describes it (the fields this package reads). */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly annotations?: { readonly title?: string; readonly readOnlyHint?: boolean };
}

/** How the toolset turns one MCP tool into an agent tool. */
export interface McpToolSettings {
  readonly connection: McpConnection;
  /** The name the model sees. */
  readonly name: string;
  readonly timeoutMs: number | undefined;
  /** The SDK's request timeout (reset by progress notifications). */
  readonly requestTimeoutMs: number;
  readonly needsApproval: ((tool: string, args: Record<string, unknown>) => boolean) | undefined;
}

/** Turns a listed MCP tool into a tool an agent can call: its JSON Schema goes to the model as it is. */
export function mcpTool(info: McpToolInfo, settings: McpToolSettings): AnyTool {
  const { needsApproval } = settings;
  const description = info.description?.trim() || info.title || info.annotations?.title || info.name;
  return jsonSchemaTool({
    name: settings.name,
    description,
    parameters: info.inputSchema,
    readOnly: info.annotations?.readOnlyHint === true,
    source: `mcp:${settings.connection.label}`,
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(needsApproval
      ? { needsApproval: (args: Record<string, unknown>) => needsApproval(info.name, args) }
      : {}),
    execute: (args, context) => callMcpTool(info.name, args, context, settings),
  });
}

async function callMcpTool(
  name: string,
  args: Record<string, unknown>,
  context: ToolContext,
  settings: McpToolSettings,
) {
  const { connection } = settings;
  const client = await connection.client();
  let result: McpCallResult;
  try {
    result = (await client.callTool({ name, arguments: args }, undefined, {
      signal: context.signal,
      timeout: settings.requestTimeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: (progress) => context.emit({ progress }),
    })) as McpCallResult;
  } catch (error) {
    if (context.signal.aborted) throw error;
    const said = connection.stderr().trim();
    const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
    const what = closed
      ? 'the connection closed during the call (the server stopped or crashed); the next call connects again'
      : describe(error);
    throw new WeftMcpError(
      'REQUEST_FAILED',
      `MCP server "${connection.label}": ${what}${said ? ` (server stderr: ${said.slice(-300)})` : ''}`,
      { cause: error },
    );
  }
  const parts = resultToParts(result);
  return toolResult(parts.length === 0 ? '' : parts, { isError: result.isError === true });
}
