import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url));
const fixture = fileURLToPath(new URL('fixtures/exit-without-close.ts', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a stdio server the process did not close is stopped when the process exits, even one that ignores the end of its stdin', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=@weft/source', '--import', tsx, fixture],
    {
      timeout: 540_000,
    },
  );
  const pids = JSON.parse(stdout.trim().split('\n').at(-1)!) as number[];
  expect(pids).toHaveLength(1);
  try {
    // the exit handler signals the server as the process ends; wait for it to be gone
    await expect.poll(() => alive(pids[0]!), { timeout: 30_000 }).toBe(false);
  } finally {
    if (alive(pids[0]!)) process.kill(pids[0]!, 'SIGKILL');
  }
}, 600_000);
