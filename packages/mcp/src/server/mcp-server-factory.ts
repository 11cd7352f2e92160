import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe } from '../errors/weft-mcp-error.js';
import { RESUME_TOOL, type ServeOutcome, type ServeTarget, targetOfThread } from './serve-target.js';

const resumeTool = {
  name: RESUME_TOOL,
  description:
    'Answers the interrupts of a paused run (a result with status "interrupted") and continues it. ' +
    'Pass its thread_id, and as answer one value for a single interrupt or { [interruptId]: value } for several ' +
    '(a tool approval takes true, false or { approved, reason }).',
  inputSchema: {
    type: 'object' as const,
    properties: {
      thread_id: { type: 'string', description: 'The thread_id of the interrupted result.' },
      answer: { description: 'The answer: one value, or { [interruptId]: value }.' },
    },
    required: ['thread_id', 'answer'],
  },
};

function toResult(outcome: ServeOutcome): CallToolResult {
  if (outcome.status === 'interrupted') {
    const structured = {
      status: 'interrupted',
      thread_id: outcome.threadId,
      interrupts: outcome.interrupts.map((i) => ({ id: i.id, value: i.value })),
      answer_with: RESUME_TOOL,
    };
    const text = `The run is paused and waits for an answer. Call ${RESUME_TOOL} with thread_id "${outcome.threadId}" and an answer to: ${JSON.stringify(structured.interrupts)}`;
    return { content: [{ type: 'text', text }], structuredContent: structured };
  }
  return {
    content: [{ type: 'text', text: outcome.text }],
    structuredContent: { status: 'done', thread_id: outcome.threadId, output: outcome.output },
  };
}

function failed(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** An MCP server (the SDK's low-level `Server`) whose tools are the targets, plus `weft_resume`. */
export function createMcpServer(
  targets: ReadonlyMap<string, ServeTarget>,
  info: { readonly name: string; readonly version: string },
): Server {
  const server = new Server(info, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...[...targets.values()].map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema as { type: 'object' },
      })),
      ...(targets.size > 0 ? [resumeTool] : []),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    try {
      if (name === RESUME_TOOL) {
        const threadId = String(args.thread_id ?? '');
        const target = targets.get(targetOfThread(threadId) ?? '');
        if (!target)
          return failed(`Unknown thread_id "${threadId}": pass the thread_id of an interrupted result.`);
        return toResult(await target.resume(threadId, args.answer, extra.signal));
      }
      const target = targets.get(name);
      if (!target)
        return failed(`Unknown tool "${name}". Available tools: ${[...targets.keys()].join(', ')}.`);
      return toResult(await target.start(args, extra.signal));
    } catch (error) {
      return failed(`Tool "${name}" failed: ${describe(error)}`);
    }
  });
  return server;
}
