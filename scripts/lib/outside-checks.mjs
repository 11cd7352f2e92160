// Checks check:packages runs in an outside project that installed Weft's tarballs: the README
// quickstarts as written, and a user file typechecked against the installed types.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './shell.mjs';

const root = new URL('../..', import.meta.url).pathname;

/** Runs the compose, adk and prebuilt README quickstarts as written and checks what each prints. */
export function checkQuickstarts(project, env) {
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
    const output = run('node', ['--import', 'tsx', file], { cwd: project, env });
    if (!expected.test(output))
      throw new Error(`the ${name} quickstart printed:\n${output}\nexpected ${expected}`);
    console.log(`${name} quickstart: ok`);
  }
}

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

/** Typechecks `user.ts` against the installed types; a misspelled node name must be a type error. */
export function checkUserFile(project, env) {
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
  const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  writeFileSync(join(project, 'user.ts'), userFile('dubble'));
  let caught = '';
  try {
    run('node', [tsc, '-p', project], { env });
  } catch (error) {
    caught = error.message;
  }
  if (!caught.includes('dubble')) throw new Error(`tsc accepted a misspelled node name:\n${caught}`);
  writeFileSync(join(project, 'user.ts'), userFile('double'));
  run('node', [tsc, '-p', project], { env });
  console.log('user file: typechecks; the misspelled node is a type error');
}
