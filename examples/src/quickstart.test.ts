import { expect, test } from 'vitest';
import { main } from './quickstart.js';

test('the quickstart example runs and prints real results', async () => {
  const lines: string[] = [];
  const result = await main((line) => lines.push(line));
  expect(result.state).toEqual({ count: 3, target: 3, log: ['count was 0', 'count was 1', 'count was 2'] });
  expect(result.squares.total).toBe(30);
  expect(result.stats).toEqual({ words: 4, longest: 'supersteps' });
  expect(lines.filter((l) => l.includes('update from increment'))).toHaveLength(2);
  expect(lines.at(-1)).toContain('flowchart TD');
});
