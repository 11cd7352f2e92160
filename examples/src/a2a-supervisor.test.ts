import { expect, test } from 'vitest';
import { main } from './a2a-supervisor.js';

test('the supervisor delegates to the SDK-built currency agent, whose question pauses the run until answered', async () => {
  const printed: string[] = [];
  const { lines, description } = await main((line) => printed.push(line), 'JPY');
  expect(description).toBe('Converts amounts between currencies'); // read from the remote card
  expect(lines).toEqual([
    'supervisor hands over to exchange',
    'exchange (remote) asks: Which currency should I convert to? (USD, JPY, GBP)',
    'exchange: 100 EUR is 16240.00 JPY.',
    'exchange hands over to supervisor',
    'supervisor hands over to writer',
    'writer: Note: 100 EUR buys 16240.00 JPY today.',
    'writer hands over to supervisor',
    'supervisor: Done: 100 EUR is 16240.00 JPY.',
  ]);
  expect(printed).toContain('> JPY');
});
