import { expect, test } from 'vitest';
import { main, scriptedModel } from './guarded-jobs.js';

test('the guarded-jobs example blocks a password, waits on the job and answers with its result', async () => {
  const lines: string[] = [];
  const answer = await main((line) => lines.push(line), scriptedModel());
  expect(lines).toEqual([
    'blocked by no-passwords: the message holds a password',
    'session waiting: render_report is job-1',
    'analyst: Your report is ready: https://reports.example/job-1.pdf',
    'session idle after 2 turns',
  ]);
  expect(answer).toBe('Your report is ready: https://reports.example/job-1.pdf');
});
