// `pnpm check:packages`: the packages as a user gets them.
// 1. builds the playground's published form and packs every publishable package (scripts/pack.mjs);
// 2. publint (strict) and @arethetypeswrong/cli (ESM-only profile) on each package;
// 3. an outside project: a fresh folder in the OS temp dir, `npm install` of the tarballs plus their
//    dependencies from the registry, and there: the compose, adk and prebuilt README quickstarts as
//    written (taken from the READMEs), a user file typechecked against the installed types (with a
//    misspelled node name that must fail), and `npx weft dev ./graphs.ts` answering GET /api/graphs.
// Builds first. Exits non-zero on the first failure, naming it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packAll } from './pack.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const step = (text) => console.log(`\n== ${text}`);
const run = (command, args, options = {}) =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });

step('build every package (and the web app and server bundle of the playground), then pack them');
execFileSync('pnpm', ['build'], { cwd: root, stdio: 'inherit' });
execFileSync('pnpm', ['--filter', '@weft/playground', 'build'], { cwd: root, stdio: 'inherit' });
const packed = packAll(join(mkdtempSync(join(tmpdir(), 'weft-packs-')), 'packs'));
for (const p of packed) console.log(`${p.name}@${p.version}  ${p.tarball}`);

step('publint --strict and attw --profile esm-only');
for (const p of packed) {
  run(bin('publint'), [p.dir, '--strict']);
  run(bin('attw'), [p.tarball, '--profile', 'esm-only', '--format', 'ascii']);
  console.log(`${p.name}: publint and attw pass`);
}

step('an outside project installs the tarballs from disk and their dependencies from the registry');
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
  JSON.stringify({ name: 'outside', private: true, type: 'module' }, null, 2),
);
run(
  'npm',
  [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...packed.map((p) => p.tarball),
    `zod@${zodFloor}`,
    `typescript@${rootManifest.devDependencies.typescript}`,
    `@types/node@${rootManifest.devDependencies['@types/node']}`,
    `vitest@${rootManifest.devDependencies.vitest}`,
  ],
  { cwd: project, stdio: 'inherit' },
);
console.log(`installed in ${project}`);

step('the README quickstarts, as written');
const quickstarts = [
  ['compose', /count: 3/],
  ['adk', /calc assistant/],
  ['prebuilt', /# Weft/],
];
for (const [name, expected] of quickstarts) {
  const readme = readFileSync(join(root, 'packages', name, 'README.md'), 'utf8');
  // The block may follow the doc-example markers (`<!-- doc-example: run -->`, CONTRIBUTING.md).
  const code = /## Quickstart\n\n(?:<!--[\s\S]*?-->\n)*```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!code) throw new Error(`packages/${name}/README.md has no Quickstart code block`);
  const file = join(project, `quickstart-${name}.ts`);
  writeFileSync(file, code);
  const output = run(process.execPath, ['--import', 'tsx', file], { cwd: project });
  if (!expected.test(output))
    throw new Error(`the ${name} quickstart printed:\n${output}\nexpected ${expected}`);
  console.log(`${name} quickstart: ok`);
}

step('a user file typechecks against the installed types, and a misspelled node name does not');
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
    },
    include: ['user.ts'],
  }),
);
const userFile = (target) => `import { END, START, StateGraph } from '@weft/compose';
import { ChatModelAgent } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { z } from 'zod';

export const graph = new StateGraph(z.object({ n: z.number() }))
  .addNode('double', (s) => ({ n: s.n * 2 }))
  .addEdge(START, '${target}')
  .addEdge('double', END)
  .compile();
const result: { n: number } = await graph.invoke({ n: 2 });
export const agent = new ChatModelAgent({ name: 'a', model: new ScriptedChatModel(['hi']) });
console.log(result.n);
`;
writeFileSync(join(project, 'user.ts'), userFile('double'));
run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);
writeFileSync(join(project, 'user.ts'), userFile('dubble'));
let caught = '';
try {
  run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);
} catch (error) {
  caught = `${error.stdout}`;
}
if (!caught.includes('dubble')) throw new Error(`tsc accepted a misspelled node name:\n${caught}`);
console.log('user file: typechecks; the misspelled node is a type error');

step('npx weft dev ./graphs.ts serves the user graph');
writeFileSync(join(project, 'user.ts'), userFile('double'));
writeFileSync(join(project, 'graphs.ts'), "export { graph as doubler } from './user.ts';\n");
await new Promise((resolve, reject) => {
  const child = spawn(
    'npx',
    ['weft', 'dev', './graphs.ts', '--port', '0', '--db', join(project, 'weft.db'), '--no-watch'],
    // Its own process group: npx, the weft bin and the server it starts are stopped together.
    { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  let output = '';
  const fail = (why) => {
    stop();
    reject(new Error(`${why}\n${output}`));
  };
  const timer = setTimeout(() => fail('weft dev did not start within 120 s'), 120_000);
  const onData = async (data) => {
    output += data;
    const url = /open (http:\/\/\S+)/.exec(output)?.[1];
    if (!url) return;
    child.stdout.off('data', onData);
    try {
      const graphs = await (await fetch(new URL('/api/graphs', url))).json();
      clearTimeout(timer);
      stop();
      if (!graphs.graphs.some((g) => g.id === 'doubler'))
        return reject(new Error(`GET /api/graphs: ${JSON.stringify(graphs)}`));
      console.log(`weft dev served ${graphs.graphs.map((g) => g.id).join(', ')} at ${url}`);
      resolve();
    } catch (error) {
      fail(`GET /api/graphs failed: ${error}`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', (data) => {
    output += data;
  });
  child.on('close', (code) => {
    if (code !== null && code !== 0) fail(`weft dev exited with ${code}`);
  });
});
step('npx weft init scaffolds a project whose test passes and whose app serves');
run('npx', ['weft', 'init', 'my-app'], { cwd: project });
run(process.execPath, [
  join(project, 'node_modules', 'typescript', 'bin', 'tsc'),
  '-p',
  join(project, 'my-app'),
]);
const tested = run('npx', ['vitest', 'run', '--root', 'my-app'], { cwd: project });
if (!/2 passed/.test(tested)) throw new Error(`the scaffolded project's tests:\n${tested}`);
console.log('weft init: the new project typechecks and its 2 tests pass');

console.log('\ncheck:packages: every package packs, lints, installs and runs outside the repository');
// Nothing may keep this process alive once the checks are done.
process.exit(0);
