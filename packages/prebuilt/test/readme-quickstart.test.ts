import { readFile } from 'node:fs/promises';
import { MemorySessionService, Runner } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { expect, test } from 'vitest';
import { createDeepAgent, MemoryBackend } from '../src/index.js';

test('the README quickstart runs as written', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const quickstart = /## Quickstart\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  expect(quickstart.trim().split('\n').length).toBeLessThanOrEqual(20);
  expect(quickstart).toContain("createDeepAgent({ model, instruction: 'You summarize notes.', backend })");
  const lines: string[] = [];
  const backend = new MemoryBackend({ '/notes.md': 'Weft runs agents as graphs.' });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'read_file', arguments: { path: '/notes.md' } }] },
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: '/summary.md', content: '# Weft\nAgents as graphs.' } },
      ],
    },
    'I wrote /summary.md.',
  ]);
  const agent = createDeepAgent({ model, instruction: 'You summarize notes.', backend });
  const runner = new Runner({ agent, sessionService: new MemorySessionService() });
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Summarize my notes' })) {
    if (!event.partial && event.message) lines.push(`${event.author} ${event.message.role}`);
  }
  expect(lines.at(-1)).toBe('deep_agent assistant');
  expect(backend.toJSON()['/summary.md']).toBe('# Weft\nAgents as graphs.');
});
