import { expect, test } from 'vitest';
import { main, scriptedModels } from './plan-execute.js';

test('the plan-execute example plans, executes each step with tools, replans and answers', async () => {
  const lines: string[] = [];
  const result = await main((line) => lines.push(line), scriptedModels());
  expect(result.answer).toBe('Oslo and Bergen have 1 000 000 people together.');
  expect(result.executed).toEqual([
    { step: 'Find the populations of Oslo and Bergen', result: 'Oslo has 709000 people, Bergen 291000.' },
    { step: 'Add 709000 and 291000', result: 'Together: 1000000.' },
  ]);
  expect(result.left).toEqual([]);
  expect(lines[0]).toBe(
    'planner calls plan({"steps":["Find the populations of Oslo and Bergen","Add them up"]})',
  );
  expect(lines).toContain('executor calls population({"city":"Oslo"}), population({"city":"Bergen"})');
  expect(lines.at(-1)).toBe('step 2: Add 709000 and 291000 → Together: 1000000.');
});
