import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { expect, test } from 'vitest';
import { mcpToolset } from '../src/index.js';
import { filesystemServer } from './servers.js';

test('the README quickstart runs as written (on the installed server and a scripted model)', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const quickstart = /## Quickstart\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  expect(quickstart.trim().split('\n').length).toBeLessThanOrEqual(20);
  expect(quickstart).toContain("args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'],");
  expect(quickstart).toContain('resources: [files] });');
  const server = filesystemServer({ 'notes.md': 'Weft runs agents as graphs.' });
  const files = mcpToolset({ ...server, prefix: 'fs_' });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'fs_read_text_file', arguments: { path: join(server.root, 'notes.md') } }] },
    'Your notes say Weft runs agents as graphs.',
  ]);
  const agent = new ChatModelAgent({ name: 'librarian', model, tools: await files.tools() });
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), resources: [files] });
  const lines: string[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Summarize notes.md' })) {
    if (!event.partial && event.message) lines.push(`${event.author} ${messageText(event.message)}`);
  }
  await runner.close();
  expect(lines).toEqual([
    'user Summarize notes.md',
    'librarian ',
    'librarian Weft runs agents as graphs.',
    'librarian Your notes say Weft runs agents as graphs.',
  ]);
});
