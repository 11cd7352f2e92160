// `pnpm check:packages`: the packages as a user gets them, and the README's install paths as written.
// 1. builds everything and packs every publishable package (scripts/pack.mjs fails on any file a
//    manifest names that the tarball would lack);
// 2. publint (strict) and @arethetypeswrong/cli (ESM-only profile) on each package;
// 3. under the lowest Node.js the packages support (engines.node's floor, fetched from the npm
//    registry), an outside project installs every tarball (an engine warning fails the check), runs the
//    compose, adk and prebuilt README quickstarts as written, typechecks a user file (a misspelled node
//    name must fail), and serves it with `npx @weft/playground dev ./graphs.ts`;
// 4. `npx @weft/playground init my-app` there scaffolds a project pointing at the same tarballs; in it,
//    exactly as its README says: `npm install`, `npm test`, `npm run typecheck`, `npm run dev` (then a
//    chat of three turns with its agent through the playground's API);
// 5. after the release: the tarballs published to a registry on loopback, `npm create weft@latest` and
//    `npx @weft/playground` resolve to Weft's packages, and the new project installs and tests.
// Exits non-zero on the first failure, naming it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { startLocalRegistry } from './lib/local-registry.mjs';
import { lowestNodeBin, lowestSupportedNode } from './lib/lowest-node.mjs';
import { keepPrebuild, prebuildEnv } from './lib/native-prebuilds.mjs';
import { checkQuickstarts, checkUserFile } from './lib/outside-checks.mjs';
import { chat, servedGraphs } from './lib/playground-api.mjs';
import { run, runWithStderr, serve, step } from './lib/shell.mjs';
import { buildAll, packAll } from './pack.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);

step('build every package (the playground included), then pack them');
buildAll();
const packed = packAll(join(mkdtempSync(join(tmpdir(), 'weft-packs-')), 'packs'));
const packsDir = join(packed[0].tarball, '..');
for (const p of packed) console.log(`${p.name}@${p.version}  ${p.tarball}`);

step('publint --strict and attw --profile esm-only');
for (const p of packed) {
  run(bin('publint'), [p.dir, '--strict']);
  run(bin('attw'), [p.tarball, '--profile', 'esm-only', '--format', 'ascii']);
  console.log(`${p.name}: publint and attw pass`);
}

const lowest = lowestNodeBin();
const env = {
  ...process.env,
  ...prebuildEnv,
  PATH: lowest === undefined ? process.env.PATH : `${lowest}${delimiter}${process.env.PATH}`,
  // The scaffold's `npm run dev` reads it: a free port, not the playground's default 4317.
  WEFT_PORT: '0',
};
const node = run('node', ['--version'], { env }).trim();
const abi = run('node', ['-p', 'process.versions.modules'], { env }).trim();
console.log(
  lowest === undefined
    ? `\n(no Node.js ${lowestSupportedNode()} build for ${process.platform}-${process.arch}: running under ${node})`
    : `\nthe outside projects run under Node.js ${node}, the lowest the packages support`,
);

/** `npm install` in `cwd`; fails on an engine warning (a dependency that does not support this Node). */
function npmInstall(cwd, args = [], installEnv = env) {
  const output = runWithStderr('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', ...args], {
    cwd,
    env: installEnv,
  });
  if (/EBADENGINE/.test(output)) throw new Error(`npm install in ${cwd} warned of engines:\n${output}`);
  keepPrebuild(cwd, abi);
}

step(`an outside project: npm install ${packsDir}/*.tgz zod (as the README says)`);
const project = mkdtempSync(join(tmpdir(), 'weft-outside-'));
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// zod is a peer dependency (`^x.y.z`, one range in every package, checked by check-deps.mjs): the repo's
// own tests run the newest version its devDependencies pin; the outside project installs the range's
// floor, so both ends of the range are tested.
const zodRange = JSON.parse(readFileSync(join(root, 'packages/compose/package.json'), 'utf8'))
  .peerDependencies.zod;
const zodFloor = /^\^(\d+\.\d+\.\d+)$/.exec(zodRange)?.[1];
if (!zodFloor)
  throw new Error(`packages/compose/package.json: peerDependencies.zod must be ^x.y.z, got ${zodRange}`);
writeFileSync(
  join(project, 'package.json'),
  JSON.stringify({ name: 'outside', private: true, type: 'module' }),
);
npmInstall(project, [
  ...packed.map((p) => p.tarball),
  `zod@${zodFloor}`,
  `typescript@${rootManifest.devDependencies.typescript}`,
  `@types/node@${rootManifest.devDependencies['@types/node']}`,
]);
console.log(`installed in ${project}`);

step('the README quickstarts, as written');
checkQuickstarts(project, env);

step('a user file typechecks against the installed types, and a misspelled node name does not');
checkUserFile(project, env);

step('npx @weft/playground dev ./graphs.ts serves the user graph');
writeFileSync(join(project, 'graphs.ts'), "export { graph as doubler } from './user.ts';\n");
{
  const dev = await serve(
    'npx',
    ['@weft/playground', 'dev', './graphs.ts', '--no-watch', '--db', join(project, 'weft.db')],
    {
      cwd: project,
      env,
    },
  );
  try {
    const ids = await servedGraphs(dev.url);
    if (!ids.includes('doubler')) throw new Error(`GET /api/graphs served ${ids.join(', ')}, not doubler`);
    console.log(`served ${ids.join(', ')} at ${dev.url}`);
  } finally {
    dev.stop();
  }
}

/** The scaffold's README commands, in order, in `app`: install, test, typecheck, dev and a chat. */
async function checkScaffold(app, installEnv = env) {
  npmInstall(app, [], installEnv);
  const tested = run('npm', ['test'], { cwd: app, env: installEnv });
  if (!/2 passed/.test(tested)) throw new Error(`the scaffolded project's npm test:\n${tested}`);
  run('npm', ['run', 'typecheck'], { cwd: app, env: installEnv });
  const dev = await serve('npm', ['run', 'dev'], { cwd: app, env: installEnv });
  try {
    const ids = await servedGraphs(dev.url);
    if (!ids.includes('counter') || !ids.includes('calculator'))
      throw new Error(`npm run dev served ${ids.join(', ')}`);
    const replies = await chat(dev.url, 'calculator', ['What is 2 + 3?', 'And 40 + 2?', 'Thanks!']);
    const expected = ['It is 5.', 'It is 42.', 'Ask me to add two numbers, like: what is 2 + 3?'];
    if (JSON.stringify(replies) !== JSON.stringify(expected))
      throw new Error(
        `the calculator answered ${JSON.stringify(replies)}, expected ${JSON.stringify(expected)}`,
      );
    console.log(`${app}: npm install, npm test, npm run typecheck, npm run dev (3 chat turns answered)`);
  } finally {
    dev.stop();
  }
}

step('npx @weft/playground init my-app: the scaffold, on the same tarballs, as its README says');
const created = run('npx', ['@weft/playground', 'init', 'my-app'], { cwd: project, env });
if (!created.includes(`from the tarballs in ${packsDir}`))
  throw new Error(`weft init did not point the project at the tarballs:\n${created}`);
await checkScaffold(join(project, 'my-app'));

step('after the release: the tarballs on a registry, and the README commands that resolve to them');
const registry = await startLocalRegistry(packed);
try {
  // npm_config_yes answers npx's "Ok to proceed?" as a user at a terminal would.
  const registryEnv = { ...env, npm_config_registry: registry.url, npm_config_yes: 'true' };
  const fresh = mkdtempSync(join(tmpdir(), 'weft-release-'));
  const help = run('npx', ['@weft/playground', '--help'], { cwd: fresh, env: registryEnv });
  if (!help.includes('Serves graphs and agents in the Weft playground'))
    throw new Error(`npx @weft/playground --help printed:\n${help}`);
  run('npm', ['create', 'weft@latest', 'my-agent'], { cwd: fresh, env: registryEnv });
  await checkScaffold(join(fresh, 'my-agent'), registryEnv);
  console.log(`npm create weft@latest and npx @weft/playground resolve to Weft's packages (${registry.url})`);
} finally {
  registry.stop();
}

console.log('\ncheck:packages: every package packs, lints, installs and runs outside the repository');
// Nothing may keep this process alive once the checks are done.
process.exit(0);
