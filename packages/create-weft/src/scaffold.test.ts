import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCreate } from './cli.js';
import { scaffold, VERSION } from './scaffold.js';

it('writes a project whose package.json depends on this Weft version and runs the playground and tests', async () => {
  const dir = join(await mkdtemp(join(tmpdir(), 'create-weft-')), 'my-agent');
  const files = scaffold({ directory: dir });
  expect(files).toEqual(
    expect.arrayContaining([
      'package.json',
      'tsconfig.json',
      'src/graph.ts',
      'src/agent.ts',
      'src/app.ts',
      'src/graph.test.ts',
    ]),
  );
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  expect(manifest.name).toBe('my-agent');
  expect(manifest.dependencies['@weft/compose']).toBe(`^${VERSION}`);
  expect(manifest.scripts).toMatchObject({ dev: 'weft dev src/app.ts', test: 'vitest run' });
  expect(VERSION).toBe(
    JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')).version,
  );
});

it('refuses a folder that is not empty, and an invalid package name', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'create-weft-'));
  await writeFile(join(dir, 'keep.txt'), 'mine');
  expect(() => scaffold({ directory: dir })).toThrow(/exists and is not empty/);
  expect(() => scaffold({ directory: join(dir, 'x'), name: 'Bad Name' })).toThrow(
    /not a valid npm package name/,
  );
  const lines: string[] = [];
  expect(runCreate([dir], (line) => lines.push(line))).toBe(1);
  expect(lines[0]).toContain('exists and is not empty');
});
