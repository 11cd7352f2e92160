import { expect, test } from 'vitest';
import { main } from './approval-flow.js';

test('the approval example resumes after a restart without redoing finished steps', async () => {
  const lines: string[] = [];
  const { final, sideEffects } = await main((line) => lines.push(line));
  expect(final).toEqual({
    order: 'A-17',
    amount: 40,
    decision: 'approved',
    log: ['checked order A-17 for 40 EUR', 'dana decided', 'paid 40 EUR'],
  });
  // `approve` runs twice by design (once to ask, once to receive the answer); `check` never repeats.
  expect(sideEffects).toEqual({ check: 1, approve: 2, payout: 1 });
  expect(lines[1]).toContain('waits at approve');
});
