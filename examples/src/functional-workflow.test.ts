import { expect, test } from 'vitest';
import { main } from './functional-workflow.js';

test('the workflow pauses in a task, resumes after a restart without repeating finished calls, and remembers earlier turns', async () => {
  const lines: string[] = [];
  const { first, second, calls } = await main((line) => lines.push(line));
  expect(first).toEqual({
    report: 'owls: wiki says owls matter; news says owls matter. (ok by sam)',
    earlier: [],
  });
  expect(second).toEqual({ report: 'withdrawn', earlier: ['owls'] });
  // Per turn: each search and the draft ran once; review ran twice (paused, then answered).
  expect(calls).toEqual({ 'search:wiki': 2, 'search:news': 2, draft: 2, review: 4 });
  expect(lines[0]).toMatch(/^first process: interrupted; asks \{"question":"Publish this draft\?"/);
});
