import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, test } from 'vitest';
import { mcpToolset } from '../src/index.js';
import { filesystemServer, toolMessages } from './servers.js';

describe('mcpToolset against @modelcontextprotocol/server-filesystem', () => {
  test('a scripted agent lists, reads and writes files in the allowed directory, and is refused outside it', async () => {
    const server = filesystemServer({ 'notes.md': '# Notes\nWeft runs agents as graphs.' });
    const files = mcpToolset({ ...server, name: 'files', prefix: 'fs_', exclude: ['move_file'] });
    const tools = await files.tools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['fs_read_text_file', 'fs_write_file', 'fs_list_directory']),
    );
    expect(tools.map((t) => t.name)).not.toContain('fs_move_file');
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'fs_list_directory', arguments: { path: server.root } }] },
      { toolCalls: [{ name: 'fs_read_text_file', arguments: { path: join(server.root, 'notes.md') } }] },
      {
        toolCalls: [
          {
            name: 'fs_write_file',
            arguments: { path: join(server.root, 'summary.md'), content: 'Agents as graphs.' },
          },
          { name: 'fs_read_text_file', arguments: { path: '/etc/hostname' } },
        ],
      },
      'Wrote summary.md.',
    ]);
    const agent = new ChatModelAgent({ name: 'librarian', model, tools });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), resources: [files] });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Summarize my notes' }));
    await runner.close();
    const [listing, notes, written, outside] = toolMessages(events);
    expect(messageText(listing!)).toContain('[FILE] notes.md');
    expect(messageText(notes!)).toContain('Weft runs agents as graphs.');
    expect(written?.status).toBe('success');
    expect(await readFile(join(server.root, 'summary.md'), 'utf8')).toBe('Agents as graphs.');
    expect(outside?.status).toBe('error');
    expect(messageText(outside!)).toMatch(/Access denied|outside allowed/i);
  });
});
