import { expect, test } from 'vitest';
import { main, scriptedModel } from './agent.js';

test('the agent example answers with its tools on the scripted model', async () => {
  const lines: string[] = [];
  const answer = await main((line) => lines.push(line), scriptedModel());
  expect(answer).toBe('Rome (18 °C, sunny) is 14 degrees warmer than Oslo (4 °C, snow).');
  expect(lines[1]).toBe('forecaster calls weather({"city":"Oslo"}), weather({"city":"Rome"})');
  expect(lines.filter((l) => l.includes('(tool)'))).toHaveLength(3);
});
