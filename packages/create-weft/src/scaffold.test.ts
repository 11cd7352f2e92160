import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
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

it('points the project at local tarballs, given or found where it runs, so it installs before release', async () => {
  const base = await mkdtemp(join(tmpdir(), 'create-weft-'));
  const packs = join(base, 'packs');
  await mkdir(packs);
  const names = ['compose', 'adk', 'playground', 'eval'];
  for (const name of names) await writeFile(join(packs, `weft-${name}-${VERSION}.tgz`), '');
  await writeFile(join(packs, `create-weft-${VERSION}.tgz`), '');
  await writeFile(join(packs, 'weft-compose-0.0.1.tgz'), ''); // another version: not used
  // A project that installed Weft from those tarballs, as `npm install ./packs/*.tgz` records it.
  const outside = join(base, 'outside');
  await mkdir(outside);
  await writeFile(
    join(outside, 'package.json'),
    JSON.stringify({ dependencies: { '@weft/playground': `file:../packs/weft-playground-${VERSION}.tgz` } }),
  );
  const lines: string[] = [];
  expect(runCreate(['my-app'], (line) => lines.push(line), { cwd: outside })).toBe(0);
  expect(lines[0]).toContain(`from the tarballs in ${packs}`);
  const manifest = JSON.parse(await readFile(join(outside, 'my-app', 'package.json'), 'utf8'));
  expect(manifest.dependencies['@weft/adk']).toBe(`file:${join(packs, `weft-adk-${VERSION}.tgz`)}`);
  expect(Object.keys(manifest.overrides).sort()).toEqual(
    ['@weft/adk', '@weft/compose', '@weft/eval', '@weft/playground', 'create-weft'].sort(),
  );
  expect(manifest.overrides['@weft/compose']).toBe(`file:${join(packs, `weft-compose-${VERSION}.tgz`)}`);

  // --no-packs keeps the registry's ranges; --packs names a folder explicitly.
  expect(runCreate(['plain', '--no-packs'], () => {}, { cwd: outside })).toBe(0);
  const plain = JSON.parse(await readFile(join(outside, 'plain', 'package.json'), 'utf8'));
  expect(plain.dependencies['@weft/adk']).toBe(`^${VERSION}`);
  expect(plain.overrides).toBeUndefined();
  expect(runCreate(['explicit', '--packs', packs], () => {}, { cwd: base })).toBe(0);
  const explicit = JSON.parse(await readFile(join(base, 'explicit', 'package.json'), 'utf8'));
  expect(explicit.dependencies['@weft/compose']).toMatch(/^file:.*weft-compose-/);
});

it('names the tarballs a --packs folder lacks, and refuses --packs without a folder', async () => {
  const base = await mkdtemp(join(tmpdir(), 'create-weft-'));
  await writeFile(join(base, `weft-compose-${VERSION}.tgz`), '');
  const lines: string[] = [];
  expect(runCreate([join(base, 'app'), '--packs', base], (line) => lines.push(line))).toBe(1);
  expect(lines[0]).toMatch(/has no tarball of @weft\/adk, @weft\/playground at/);
  expect(runCreate(['app', '--packs'], (line) => lines.push(line))).toBe(2);
  expect(lines.at(-1)).toContain('--packs needs a folder');
});
