/**
 * An agent wired to an MCP server: the reference filesystem server (`@modelcontextprotocol/server-filesystem`)
 * runs as a child process over stdio, serving one directory; its tools become the agent's tools (prefixed
 * `fs_`, `move_file` left out), and writes need a person's approval. Runs offline on the scripted model,
 * or on a real model when `OPENAI_API_KEY` is set. Run it with `pnpm --filter @weft/examples mcp`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  type ChatModel,
  ChatModelAgent,
  MemorySessionService,
  messageText,
  Runner,
} from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { ScriptedChatModel } from '@weft/adk/testing';
import { mcpToolset } from '@weft/mcp';

/** The filesystem server's entry point, from the installed npm package (`npx -y` works as well). */
const serverEntry = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

/** What a real model would do for the demo request, replayed. */
export function scriptedModel(root: string): ChatModel {
  return new ScriptedChatModel([
    { toolCalls: [{ name: 'fs_list_directory', arguments: { path: root } }] },
    { toolCalls: [{ name: 'fs_read_text_file', arguments: { path: join(root, 'notes.md') } }] },
    {
      toolCalls: [
        {
          name: 'fs_write_file',
          arguments: { path: join(root, 'summary.md'), content: '- Weft runs agents as graphs.\n' },
        },
      ],
    },
    'I wrote summary.md with a one-line summary of notes.md.',
  ]);
}

/** Runs the librarian on a fresh directory; approves the write it asks for. Returns the final answer. */
export async function main(print: (line: string) => void = console.log, model?: ChatModel) {
  const root = mkdtempSync(join(tmpdir(), 'weft-mcp-example-'));
  writeFileSync(join(root, 'notes.md'), '# Notes\nWeft runs agents as graphs, checkpointed at every step.\n');
  const files = mcpToolset({
    command: process.execPath,
    args: [serverEntry, root],
    name: 'files',
    prefix: 'fs_',
    exclude: ['move_file'],
    needsApproval: (tool) => tool === 'write_file' || tool === 'edit_file',
  });
  const agent = new ChatModelAgent({
    name: 'librarian',
    instruction: `You keep the notes in ${root}. Use the fs_ tools.`,
    model: model ?? defaultModel(root),
    tools: await files.tools(),
  });
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), resources: [files] });
  const ref = { userId: 'u1', sessionId: 's1' };
  let answer = '';
  const show = async (events: AsyncIterable<AgentEvent>) => {
    for await (const event of events) {
      if (event.partial) continue;
      for (const pause of event.interrupts ?? []) print(`approval asked: ${JSON.stringify(pause.value)}`);
      if (!event.message) continue;
      const text = messageText(event.message);
      print(`${event.author} (${event.message.role}): ${text.slice(0, 120)}`);
      if (event.message.role === 'assistant' && text) answer = text;
    }
  };
  try {
    await show(runner.run({ ...ref, message: 'Summarize notes.md into summary.md' }));
    await show(runner.resume({ ...ref, decisions: true }));
  } finally {
    await runner.close();
  }
  return { answer, root };
}

function defaultModel(root: string): ChatModel {
  return process.env.OPENAI_API_KEY ? new OpenAIChatModel({}) : scriptedModel(root);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
