import { expect, test } from 'vitest';
import { main } from './order-workflow.js';

test('the workflow example builds each input from fields of several nodes, across a branch', async () => {
  const lines: string[] = [];
  const { ready, waiting } = await main((line) => lines.push(line));
  expect(ready).toEqual({ invoice: 'c-7: 50 - 5 + 9 shipping = 54', missing: [], days: 2 });
  expect(waiting).toEqual({ missing: ['quill'], days: 6 });
  expect(lines.at(-1)).toContain('flowchart TD');
});
