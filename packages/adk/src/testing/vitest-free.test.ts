// `@weft/adk/testing` is imported at run time (the playground demo, examples, a user's own scripts), where
// vitest is not installed: nothing reachable from it may import vitest. The import graph is walked from
// the entry's source, through adk's modules and the workspace packages it reaches (by their `@weft/source`
// export), type-only imports included (a `.d.ts` naming vitest fails a user's typecheck too).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const importPattern = /(?:\b(?:import|export)\s[^'"]*?from\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** The source file a workspace specifier (`@weft/compose`, `@weft/adk/testing`) resolves to, if any. */
function workspaceSource(specifier: string): string | undefined {
  const match = /^@weft\/([^/]+)(\/.*)?$/.exec(specifier);
  if (!match?.[1]) return undefined;
  const dir = join(packagesDir, match[1]);
  if (!existsSync(join(dir, 'package.json'))) return undefined;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const target = manifest.exports?.[`.${match[2] ?? ''}`]?.['@weft/source'];
  return typeof target === 'string' ? join(dir, target) : undefined;
}

/** The `.ts` file a relative specifier (`./x.js`, `../y/index.js`) names. */
function relativeSource(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')])
    if (existsSync(candidate)) return candidate;
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/** Every package outside the workspace imported from the modules reachable from `entry`, with an importer. */
function externalImports(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const external = new Map<string, string>();
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const [, specifier] of source.matchAll(importPattern)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) queue.push(relativeSource(file, specifier));
      else {
        const workspace = workspaceSource(specifier);
        if (workspace) queue.push(workspace);
        else if (!external.has(specifier)) external.set(specifier, file);
      }
    }
  }
  return external;
}

const vitestImports = (entry: string) =>
  [...externalImports(entry)].filter(([specifier]) =>
    /^(vitest|@vitest\/)/.test(specifier.replace(/^node:/, '')),
  );

it('@weft/adk/testing reaches no module that imports vitest', () => {
  const entry = workspaceSource('@weft/adk/testing');
  expect(entry).toBeDefined();
  // The walk reaches the loopback servers (node:http) and compose, so it covers the whole graph.
  expect([...externalImports(entry as string).keys()]).toEqual(expect.arrayContaining(['node:http', 'zod']));
  expect(vitestImports(entry as string)).toEqual([]);
});

it('the walk finds vitest where it is imported (the conformance entry)', () => {
  const entry = workspaceSource('@weft/adk/testing/conformance');
  expect(vitestImports(entry as string).map(([specifier]) => specifier)).toContain('vitest');
});
