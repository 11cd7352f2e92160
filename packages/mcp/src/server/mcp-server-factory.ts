import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolApprovalRequest, ToolDecision } from '@weft/adk';
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
/**
 * Who answers a served agent's tool approvals (`needsApproval`): `'caller'` lets the MCP client answer
 * them with `weft_resume`; a function is the server's own approver; absent, every approval is refused
 * (the model is told the call was not approved). See {@link ServeMcpOptions.approveTools}.
 */
export type ToolApprovalPolicy =
  | 'caller'
  | ((request: ToolApprovalRequest) => ToolDecision | boolean | Promise<ToolDecision | boolean>);

const REFUSED: ToolDecision = {
  approved: false,
  reason: "this tool needs the approval of the server's operator; a caller cannot approve it",
};

function isApproval(value: unknown): value is ToolApprovalRequest {
  return (
    typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'tool-approval'
  );
}

export function createMcpServer(
  targets: ReadonlyMap<string, ServeTarget>,
  info: { readonly name: string; readonly version: string },
  approvals?: ToolApprovalPolicy,
): Server {
  // The threads this session (one server per MCP session) made: only they can be continued or resumed
  // from it, so one client cannot drive another's conversation or run.
  const owned = new Set<string>();
  /**
   * A tool approval is never answered through the channel whose call asked for it, unless the server
   * says so: the server's approver (or a refusal) answers it, and the run goes on.
   */
  const settle = async (
    target: ServeTarget,
    first: ServeOutcome,
    signal: AbortSignal,
  ): Promise<ServeOutcome> => {
    let outcome = first;
    owned.add(outcome.threadId);
    while (
      approvals !== 'caller' &&
      outcome.status === 'interrupted' &&
      outcome.interrupts.length > 0 &&
      outcome.interrupts.every((i) => isApproval(i.value))
    ) {
      const decide = async (value: unknown) =>
        typeof approvals === 'function' ? await approvals(value as ToolApprovalRequest) : REFUSED;
      const answers = await Promise.all(
        outcome.interrupts.map(async (i) => [i.id, await decide(i.value)] as const),
      );
      const answer = answers.length === 1 ? answers[0]![1] : Object.fromEntries(answers);
      outcome = await target.resume(outcome.threadId, answer, signal);
    }
    return outcome;
  };
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
        if (!target || !owned.has(threadId))
          return failed(`Unknown thread_id "${threadId}": pass the thread_id of an interrupted result.`);
        return toResult(
          await settle(target, await target.resume(threadId, args.answer, extra.signal), extra.signal),
        );
      }
      const target = targets.get(name);
      if (!target)
        return failed(`Unknown tool "${name}". Available tools: ${[...targets.keys()].join(', ')}.`);
      if (typeof args.thread_id === 'string' && !owned.has(args.thread_id))
        return failed(
          `Unknown thread_id "${args.thread_id}": pass the thread_id of an earlier result of this session.`,
        );
      return toResult(await settle(target, await target.start(args, extra.signal), extra.signal));
    } catch (error) {
      return failed(`Tool "${name}" failed: ${describe(error)}`);
    }
  });
  return server;
}
