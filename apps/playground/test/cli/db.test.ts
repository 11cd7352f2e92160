// Issue #48: `npx @weft/playground db …` end to end, on a SQLite file and on PostgreSQL: the bin is run
// as a child process against a store a real graph wrote.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  type Checkpointer,
  Command,
  END,
  type MaintainableCheckpointer,
  START,
  StateGraph,
} from '@weft/compose';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { SqliteCheckpointer } from '@weft/store-sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const execute = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/weft.mjs', import.meta.url));

/** Runs the bin; resolves with its output and exit code (a non-zero exit is not a rejection). */
async function weft(args: readonly string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await execute(process.execPath, [bin, ...args], { timeout: 120_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

/** A loop with a review at the end: 40 steps, then a pause. */
function support(checkpointer: Checkpointer) {
  return new StateGraph(z.object({ n: z.number(), ok: z.boolean().optional() }))
    .addNode('work', (state) => ({ n: state.n + 1 }))
    .addNode('review', (_state, ctx) => ({ ok: ctx.interrupt<boolean>('close?') }))
    .addEdge(START, 'work')
    .addConditionalEdges('work', (state) => (state.n < 40 ? 'work' : 'review'))
    .addEdge('review', END)
    .compile({ checkpointer, name: 'support', maxSteps: 100 });
}

async function fill(checkpointer: MaintainableCheckpointer): Promise<void> {
  const app = support(checkpointer);
  await app.invoke({ n: 0 }, { threadId: 'ticket-1' });
  await app.invoke({ n: 0 }, { threadId: 'ticket-2' });
  await app.invoke(new Command({ resume: true }), { threadId: 'ticket-2' });
}

/** The same session of commands against one store, given as `--db …` or `--pg … --schema …`. */
async function session(store: readonly string[], open: () => MaintainableCheckpointer, directory: string) {
  expect((await weft(['db', 'migrate', ...store])).stdout).toMatch(/checkpoint store at schema version \d+/);
  const writer = open();
  await fill(writer);
  const before = (await writer.list('ticket-1')).length;
  await writer.close?.();

  const stats = await weft(['db', 'stats', ...store, '--json']);
  expect(stats.code).toBe(0);
  expect(JSON.parse(stats.stdout)).toMatchObject({ threads: 2, graphs: [{ graph: 'support', threads: 2 }] });

  const dry = await weft(['db', 'prune', ...store, '--keep-last', '2']);
  expect(dry.stdout).toMatch(/dry run: would delete \d+ checkpoints/);
  const unchanged = open();
  expect((await unchanged.list('ticket-1')).length).toBe(before);
  await unchanged.close?.();
  const applied = await weft(['db', 'prune', ...store, '--keep-last', '2', '--apply']);
  expect(applied.stdout).toMatch(/^deleted [1-9]\d* checkpoints/);

  const out = join(directory, 'ticket-1.json');
  expect((await weft(['db', 'export', 'ticket-1', ...store, '--out', out])).code).toBe(0);
  expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
    format: 'weft-thread',
    threadId: 'ticket-1',
  });
  expect((await weft(['db', 'import', out, ...store, '--as', 'ticket-1-copy'])).stdout).toMatch(
    /imported thread "ticket-1-copy"/,
  );
  const again = await weft(['db', 'import', out, ...store, '--as', 'ticket-1-copy']);
  expect(again.code).toBe(2);
  expect(again.stderr).toMatch(/thread "ticket-1-copy" already has checkpoints/);

  // The pruned, exported and imported thread still resumes.
  const reader = open();
  expect(await support(reader).invoke(new Command({ resume: true }), { threadId: 'ticket-1-copy' })).toEqual({
    n: 40,
    ok: true,
  });
  // Damage one payload at rest: verify names it, goes on, and exits 1.
  const head = (await reader.get('ticket-2'))?.checkpoint;
  if (head === undefined) throw new Error('no head');
  await reader.deleteThread('ticket-2');
  await reader.put({
    ...head,
    parentId: null,
    baseId: head.id,
    payload: head.payload.replace('"ok",true', '"ok",false'),
  });
  await reader.close?.();
  const verify = await weft(['db', 'verify', ...store]);
  expect(verify.code).toBe(1);
  expect(verify.stdout).toContain(`checksum: checkpoint "${head.id}" of thread "ticket-2" is corrupt`);
  expect(verify.stdout).toMatch(/verified 3 threads, \d+ checkpoints, \d+ task writes: 1 problems/);
}

describe('weft db on a SQLite file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-db-cli-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('stats, prune (dry run, then --apply), export, import, verify', { timeout: 600_000 }, async () => {
    const file = join(directory, 'weft.db');
    await session(['--db', file], () => new SqliteCheckpointer({ filename: file }), directory);
  });

  it('refuses bad arguments and a missing file with a message naming them', async () => {
    const missing = await weft(['db', 'stats', '--db', join(directory, 'none.db')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toMatch(/no database at .*none\.db/);
    const bad = await weft(['db', 'prune', '--db', join(directory, 'weft.db'), '--max-age', 'soon']);
    expect(bad.stderr).toMatch(/--max-age must be an age such as 30d/);
    expect((await weft(['db', 'prune', '--db', 'x.db'])).stderr).toMatch(/needs a rule/);
    expect((await weft(['db', '--help'])).stdout).toContain('Usage: weft db <command>');
  });
});

const url = process.env.WEFT_PG_URL;
if (url === undefined || url === '') console.warn('WEFT_PG_URL is not set: skipping weft db on PostgreSQL');

describe.skipIf(url === undefined || url === '')('weft db on PostgreSQL', () => {
  const schema = `weft_db_cli_${process.pid.toString(36)}_${Date.now().toString(36)}`;
  const directory = mkdtempSync(join(tmpdir(), 'weft-db-cli-pg-'));
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString: url });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    rmSync(directory, { recursive: true, force: true });
  });

  it('stats, prune (dry run, then --apply), export, import, verify', { timeout: 600_000 }, async () => {
    const open = () => new PostgresCheckpointer({ connectionString: url as string, schema });
    await session(['--pg', url as string, '--schema', schema], open, directory);
  });
});
