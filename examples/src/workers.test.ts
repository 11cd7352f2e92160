import { deleteQueue } from '@weft/worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Deployment, deploy, submitRuns } from './workers.js';

const redisUrl = process.env.WEFT_REDIS_URL ?? '';
const pgUrl = process.env.WEFT_PG_URL ?? '';
const missing = redisUrl === '' || pgUrl === '';
if (missing) console.warn('WEFT_REDIS_URL or WEFT_PG_URL is not set: skipping the workers example test');

describe.skipIf(missing)('the workers example', () => {
  const id = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const queueName = `weft-example-test-${id}`;
  const schema = `weft_example_test_${id}`;

  let deployment: Deployment | undefined;
  // Starting two Node processes that load the engine from source costs ~2 s of CPU each: on two loaded
  // cores that is what once ran past the test's 20 s. The start only waits for each worker's "ready"
  // line, so it gets the hook's own, larger ceiling; the runs themselves keep the test's 20 s.
  beforeAll(async () => {
    deployment = await deploy({ workers: 2, queueName, schema });
  }, 600_000);

  afterAll(async () => {
    await deployment?.stop();
    await deleteQueue({ connection: redisUrl, queueName });
    const pool = new pg.Pool({ connectionString: pgUrl });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }, 600_000);

  test('runs graphs on two worker processes, follows one, and resumes an approval', async () => {
    const lines: string[] = [];
    expect(deployment?.workerIds).toHaveLength(2);
    const result = await submitRuns(deployment!, (line) => lines.push(line));
    expect(result.totals).toEqual([3, 5, 8, 13]);
    expect(result.log).toEqual(['checked A-17', 'shipped A-17']);
    expect(result.statuses).toEqual(['done', 'interrupted', 'done', 'done', 'done', 'done']);
    expect(lines.some((line) => line.startsWith('followed 13 steps of run'))).toBe(true);
  });
});
