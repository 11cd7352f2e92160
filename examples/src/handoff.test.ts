import { expect, test } from 'vitest';
import { main } from './handoff.js';

test('the front desk hands billing questions to the billing agent, which pauses and resumes inside its subgraph', async () => {
  const lines: string[] = [];
  const { general, done } = await main((line) => lines.push(line));
  expect(general).toEqual({
    messages: ['when are you open?', 'front-desk: our hours are 9 to 5', 'front-desk: anything else?'],
    active: 'front-desk',
  });
  // The front desk's follow-up never runs after the hand-off; only its update reaches the team.
  expect(done).toEqual({
    messages: [
      'I want a refund for order 17',
      'front-desk: passing you to billing',
      'billing: refund issued',
    ],
    active: 'billing',
  });
  expect(lines[1]).toBe('paused in billing > refund: {"confirm":"refund for: I want a refund for order 17"}');
});
