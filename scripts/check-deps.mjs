// Dependency rules, checked in CI (`pnpm lint`):
// 1. no import cycles among the modules reachable from any package entry (every `@weft/source` export),
//    type-only imports included (import-cycles.mjs; shown catching one by import-cycles.test.mjs);
// 2. workspace packages depend one way: compose <- adk <- prebuilt <- playground; store and worker
//    packages and @weft/mcp sit between adk and prebuilt (they may use compose and adk, and be used by
//    prebuilt and the playground); @weft/otel sits after prebuilt (its tests trace prebuilt agents)
//    and before the playground; @weft/a2a sits there too (its tests put remote agents in prebuilt's
//    supervisor; the playground mounts it); @weft/server after @weft/a2a (it serves every graph over A2A
//    too) and before the playground (whose `serve` command starts it);
// 3. `openai` is imported only under packages/adk/src/model/openai/; each optional provider SDK only in
//    its adapter folder (`@anthropic-ai/sdk` under packages/adk/src/model/anthropic/, `@ai-sdk/*` and
//    `ai` under packages/adk/src/model/ai-sdk/), and that folder is reached only through its own
//    package entry (`@weft/adk/openai`, `@weft/adk/anthropic`, `@weft/adk/ai-sdk`): no other module of adk imports it, so
//    the main entry never loads an SDK the user did not install (docs/adr/011-provider-adapters.md);
//    likewise `rxjs` only under packages/compose/src/rx/ (the `@weft/compose/rx` entry);
// 4. a package imports only what its package.json declares;
// 4b. libraries the user also imports (zod) are peer dependencies of every package that uses them, all with
//    one range (pinned as a devDependency for the package's own tests), never a regular dependency: two
//    copies in an app break `instanceof` and inflate bundles;
// 5. @weft/compose imports zod for types only (its ./testing and ./func entries aside): loading zod takes longer than all of
//    compose, so the engine loads it on the first input it checks (packages/compose/src/state/update-schema.ts); the
//    functional API (`@weft/compose/func`, its own entry) needs its one fixed state schema as soon as an entrypoint is made.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { importCycles } from './import-cycles.mjs';

const root = new URL('..', import.meta.url).pathname;
const rank = {
  '@weft/compose': 0,
  '@weft/adk': 1,
  '@weft/mcp': 1.5,
  '@weft/prebuilt': 2,
  '@weft/otel': 2.5,
  '@weft/a2a': 2.5,
  '@weft/server': 2.7,
  '@weft/ui-streams': 2.5,
  '@weft/playground': 3,
  // The documentation site shows (and runs) every package's API.
  '@weft/docs': 4,
};
const problems = [];
/** Libraries users import themselves: peers, never dependencies, one range across packages. */
const sharedPeers = ['zod'];
const peerRanges = new Map();
/** Optional provider SDKs, each importable only inside its adapter folder. */
const confinedSdks = [
  // openai is a regular dependency, but only `@weft/adk/openai` loads it (ADR 024).
  [(name) => name === 'openai', 'packages/adk/src/model/openai/'],
  [(name) => name === '@anthropic-ai/sdk', 'packages/adk/src/model/anthropic/'],
  [(name) => name === 'ai' || name.startsWith('@ai-sdk/'), 'packages/adk/src/model/ai-sdk/'],
  // @weft/ui-streams writes the AI SDK's chunk types: only its `./ai-sdk` entry names them (ADR 037).
  [(name) => name === 'ai' || name.startsWith('@ai-sdk/'), 'packages/ui-streams/src/ai-sdk/'],
  // …and AG-UI's only its `./ag-ui` entry.
  [(name) => name.startsWith('@ag-ui/'), 'packages/ui-streams/src/ag-ui/'],
  // rxjs is compose's optional peer: only its `./rx` entry loads it.
  [(name) => name === 'rxjs', 'packages/compose/src/rx/'],
];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(path);
  }
  return out;
}

const packageDirs = ['packages', 'apps']
  .flatMap((group) =>
    existsSync(join(root, group)) ? readdirSync(join(root, group)).map((d) => join(root, group, d)) : [],
  )
  .filter((dir) => existsSync(join(dir, 'package.json')));

const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Root devDependencies are tools every package may use; a workspace package among them (the
// playground, linked at the root for its `weft` bin) is not thereby a dependency of the others.
const rootDev = Object.keys(rootPkg.devDependencies ?? {}).filter((dep) => !dep.startsWith('@weft/'));
const entries = [];
for (const dir of packageDirs) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const declared = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
    ...rootDev,
  ]);
  for (const shared of sharedPeers) {
    if (pkg.dependencies?.[shared]) {
      problems.push(
        `${pkg.name} lists ${shared} in dependencies: make it a peerDependency (and a devDependency)`,
      );
    }
    const range = pkg.peerDependencies?.[shared];
    if (range === undefined) continue;
    peerRanges.set(range, [...(peerRanges.get(range) ?? []), pkg.name]);
    if (!pkg.devDependencies?.[shared])
      problems.push(`${pkg.name} peers on ${shared} but pins none for its tests`);
  }
  const own = rank[pkg.name] ?? 1.5;
  for (const dep of declared) {
    if (dep.startsWith('@weft/') && dep in rank && rank[dep] >= own && dep !== pkg.name) {
      problems.push(
        `${pkg.name} depends on ${dep}: dependencies run one way, compose <- adk <- (mcp, stores, worker) <- prebuilt <- playground`,
      );
    }
  }
  if (!existsSync(join(dir, 'src'))) continue;
  for (const target of Object.values(pkg.exports ?? {})) {
    const source = typeof target === 'object' ? target['@weft/source'] : undefined;
    if (source) entries.push(relative(root, join(dir, source)));
  }
  for (const file of walk(join(dir, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
      const spec = match[1];
      if (spec.startsWith('.')) {
        const target = relative(root, join(dirname(file), spec));
        const rel = relative(root, file);
        for (const [, folder] of confinedSdks) {
          if (target.startsWith(folder) && !rel.startsWith(folder) && !/\.test(-d)?\.ts$/.test(rel)) {
            problems.push(`${rel} imports ${spec}: ${folder} is reached only through its own package entry`);
          }
        }
        continue;
      }
      if (spec.startsWith('node:')) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      const rel = relative(root, file);
      const typeOnly = /^\s*(?:import|export)\s+type\s/.test(match[0]);
      if (
        name === 'zod' &&
        !typeOnly &&
        rel.startsWith('packages/compose/src/') &&
        !rel.startsWith('packages/compose/src/testing/') &&
        !rel.startsWith('packages/compose/src/func/') &&
        !/\.test(-d)?\.ts$/.test(rel)
      ) {
        problems.push(`${rel} imports zod at run time: compose may only \`import type\` from zod`);
      }
      const folders = confinedSdks.filter(([sdk]) => sdk(name)).map(([, folder]) => folder);
      if (folders.length > 0 && !folders.some((f) => rel.startsWith(f)) && !/\.test(-d)?\.ts$/.test(rel)) {
        problems.push(
          `${rel} imports '${name}': only ${folders.join(' or ')} may (an optional peer dependency)`,
        );
      }
      if (name !== pkg.name && !declared.has(name))
        problems.push(`${rel} imports '${name}', which ${pkg.name} does not declare`);
    }
  }
}

for (const cycle of importCycles(entries, root)) {
  problems.push(`import cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
}

if (peerRanges.size > 1) {
  const listed = [...peerRanges].map(([range, names]) => `${range} (${names.join(', ')})`).join('; ');
  problems.push(`zod peer ranges differ: ${listed}`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`✖ ${problem}`);
  process.exit(1);
}
console.log(`dependency rules hold (${packageDirs.length} packages, no cycles)`);
