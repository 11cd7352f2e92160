import { expect, test } from 'vitest';
import { nextRun, parseCron } from './cron-schedule.js';

const next = (expression: string, after: string) =>
  nextRun(parseCron(expression), new Date(after)).toISOString();

test('next runs of common schedules, in UTC', () => {
  expect(next('* * * * *', '2026-01-01T10:00:30Z')).toBe('2026-01-01T10:01:00.000Z');
  expect(next('*/15 * * * *', '2026-01-01T10:14:00Z')).toBe('2026-01-01T10:15:00.000Z');
  expect(next('0 3 * * *', '2026-01-01T03:00:00Z')).toBe('2026-01-02T03:00:00.000Z');
  expect(next('30 9 * * 1-5', '2026-01-02T10:00:00Z')).toBe('2026-01-05T09:30:00.000Z'); // Friday → Monday
  expect(next('0 0 1 */3 *', '2026-02-10T00:00:00Z')).toBe('2026-04-01T00:00:00.000Z');
  expect(next('0 12 13 * 5', '2026-02-01T00:00:00Z')).toBe('2026-02-06T12:00:00.000Z'); // the 13th or a Friday
  expect(next('0 0 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
  expect(next('0 0 * * 7', '2026-01-01T00:00:00Z')).toBe('2026-01-04T00:00:00.000Z'); // 7 is Sunday too
});

test('bad schedules name the field', () => {
  expect(() => parseCron('* * *')).toThrow(/5 fields/);
  expect(() => parseCron('61 * * * *')).toThrow(/minute "61"/);
  expect(() => parseCron('* * * 0 *')).toThrow(/month "0"/);
  expect(() => parseCron('* x * * *')).toThrow(/bad hour "x"/);
  expect(() => nextRun(parseCron('0 0 31 2 *'), new Date())).toThrow(/never runs/);
});
