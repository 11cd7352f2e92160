import { expect, test } from 'vitest';
import { main, scriptedModel } from './deep-agent.js';

test('the deep agent example plans, greps, reads and writes its report on the scripted model', async () => {
  const lines: string[] = [];
  const result = await main((line) => lines.push(line), scriptedModel());
  expect(result.answer).toBe('I found 2 TODOs and listed them in /TODO_REPORT.md.');
  expect(result.report).toBe('# TODOs\n- src/cart.ts:2 apply discounts\n- src/user.ts:2 add email\n');
  expect(result.todos).toEqual([
    { content: 'Find the TODO comments', status: 'completed' },
    { content: 'Read the files that have them', status: 'completed' },
    { content: 'Write /TODO_REPORT.md', status: 'completed' },
  ]);
  expect(lines[0]).toBe('deep_agent calls write_todos');
  expect(lines[1]).toBe(
    'todos:\n[~] Find the TODO comments\n[ ] Read the files that have them\n[ ] Write /TODO_REPORT.md',
  );
  expect(lines).toContain('deep_agent calls grep');
  expect(lines.filter((line) => line.startsWith('todos:'))).toHaveLength(4);
  expect(lines.at(-1)).toMatch(/^report:\n# TODOs/);
});
