// Module load hook: compiles the workspace's TypeScript (the bench's own graphs, floor and harness; Weft
// itself is loaded from its built dist) with esbuild *without* `keepNames`.
//
// Why: tsx always transforms with `keepNames: true`, which wraps every function and closure in an
// `__name(fn, "name")` call (an `Object.defineProperty` each time a closure is created). When Weft was
// measured from source that doubled the cost of a step; for the bench's own node functions and floor it
// still adds a cost no user's compiled code has. Resolution (`.js` → `.ts`) is still tsx's; only the
// transform of `.ts` files outside node_modules is ours.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const TSCONFIG = { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: true } };

function isWorkspaceTypeScript(url) {
  return url.startsWith('file:') && /\.m?ts$/.test(new URL(url).pathname) && !url.includes('/node_modules/');
}

export async function load(url, context, nextLoad) {
  if (!isWorkspaceTypeScript(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const result = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcefile: path,
    sourcemap: 'inline',
    keepNames: false,
    tsconfigRaw: TSCONFIG,
  });
  return { format: 'module', source: result.code, shortCircuit: true };
}
