// Type-checks documentation code blocks: every README block and every TSDoc `@example` becomes a module in a
// scratch folder of the package it documents (so imports resolve as they would for that package's user),
// and all of them are checked by ONE `tsc` run. Errors are mapped back to the Markdown / source line.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { exportedNames, packageEntries } from './exports.mjs';
import { docModules } from './modules.mjs';
import { packageDirOf, rebaseRelativeImports } from './package-dir.mjs';

/**
 * @typedef {import('./extract.mjs').DocBlock} DocBlock
 * @typedef {{ file: string, line: number, column: number, code: string, message: string }} DocDiagnostic
 * @typedef {{ block: DocBlock, diagnostics: DocDiagnostic[] }} CheckedBlock
 * @typedef {{ checked: CheckedBlock[], skipped: DocBlock[], unmapped: DocDiagnostic[], milliseconds: number }} CheckReport
 */

const run = promisify(execFile);
const scratchName = 'test-results/doc-examples';

/**
 * Compiles `blocks` (paths relative to `root`) in one TypeScript program and reports each block's errors.
 * Blocks marked `skip` are counted, not compiled; a `continues` block joins the module of the block before it.
 *
 * @param {{ root: string, blocks: DocBlock[] }} options - `root` is the repository root (holds `node_modules/typescript`).
 * @returns {Promise<CheckReport>}
 * @example
 * const report = await checkDocBlocks({ root, blocks: extractMarkdownBlocks(readme, 'packages/otel/README.md') });
 * report.checked.filter((entry) => entry.diagnostics.length > 0); // the blocks that do not compile
 */
export async function checkDocBlocks({ root, blocks }) {
  const started = performance.now();
  const skipped = blocks.filter((block) => block.marker.kind === 'skip');
  const modules = docModules(blocks);
  const scratchDirs = new Set();
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  /** @type {Map<string, { lines: ({ block: CheckedBlock, line: number } | undefined)[] }>} */
  const generated = new Map();
  /** @type {CheckedBlock[]} */
  const checked = [];
  modules.forEach((group, index) => {
    const packageDir = packageDirOf(root, group[0]?.file ?? '');
    const scratch = join(packageDir, scratchName, tag);
    scratchDirs.add(scratch);
    const target = join(scratch, `${index}-${slug(group[0]?.file ?? '')}.ts`);
    const header = group[0]?.source === 'tsdoc' ? implicitImports(root, packageDir, scratch, group[0]) : [];
    /** @type {({ block: CheckedBlock, line: number } | undefined)[]} */
    const lines = header.map(() => undefined);
    const text = [...header];
    for (const block of group) {
      const entry = { block, diagnostics: [] };
      checked.push(entry);
      for (const part of [block.marker.prelude, block, block.epilogue].filter((part) => part !== undefined))
        (block.source === 'readme'
          ? rebaseRelativeImports(part.code, dirname(resolve(root, block.file)), scratch)
          : part.code
        )
          .replace(/\n$/, '')
          .split('\n')
          .forEach((line, offset) => {
            text.push(line);
            lines.push({ block: entry, line: part.line + offset });
          });
    }
    text.push('export {};', '');
    mkdirSync(scratch, { recursive: true });
    writeFileSync(target, text.join('\n'));
    generated.set(target, { lines });
  });
  /** @type {DocDiagnostic[]} */
  const unmapped = [];
  try {
    const configDir = join(root, scratchName, tag);
    let output = await compile(root, [...generated.keys()], configDir);
    // tsc stops at syntax errors (TS1xxx) without checking types: report those files' syntax errors and
    // check the others again, so one broken block cannot hide the type errors of the rest.
    const broken = new Set(
      output.filter((diagnostic) => /^TS1\d{3}$/.test(diagnostic.code)).map((d) => d.file),
    );
    if (broken.size > 0)
      output = [
        ...output.filter((diagnostic) => broken.has(diagnostic.file)),
        ...(await compile(
          root,
          [...generated.keys()].filter((file) => !broken.has(file)),
          configDir,
        )),
      ];
    for (const diagnostic of output) {
      const mapped = generated.get(diagnostic.file)?.lines[diagnostic.line - 1];
      if (mapped)
        mapped.block.diagnostics.push({ ...diagnostic, file: mapped.block.block.file, line: mapped.line });
      else unmapped.push({ ...diagnostic, file: relative(root, diagnostic.file) });
    }
  } finally {
    for (const dir of [...scratchDirs, join(root, scratchName, tag)])
      rmSync(dir, { recursive: true, force: true });
  }
  return { checked, skipped, unmapped, milliseconds: Math.round(performance.now() - started) };
}

/** @param {string} file */
function slug(file) {
  return file
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(-60);
}

/**
 * Import lines for the names a TSDoc example uses without importing or declaring them: the exports of the
 * module it documents, then of its package's entry points, then of the workspace packages it depends on,
 * and `z` from zod. An example thus reads like code in (or next to) the module it documents.
 * @param {string} root
 * @param {string} packageDir
 * @param {string} scratch
 * @param {DocBlock | undefined} block
 * @returns {string[]}
 */
function implicitImports(root, packageDir, scratch, block) {
  if (!block) return [];
  const used = usedNames(block.code);
  /** @type {Map<string, string[]>} */
  const bySpecifier = new Map();
  const take = (/** @type {string} */ specifier, /** @type {Iterable<string>} */ names) => {
    for (const name of names)
      if (used.delete(name)) bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), name]);
  };
  const own = resolve(root, block.file);
  take(relative(scratch, own).replace(/\.ts$/, '.js'), exportedNames(own));
  for (const [specifier, source] of [...packageEntries(packageDir), ...dependencyEntries(root, packageDir)])
    take(specifier, exportedNames(source));
  take('zod', ['z']);
  return [...bySpecifier].map(([specifier, names]) => `import { ${names.join(', ')} } from '${specifier}';`);
}

/**
 * The main entry points of the workspace packages `packageDir` depends on.
 * @param {string} root
 * @param {string} packageDir
 * @returns {[string, string][]}
 */
function dependencyEntries(root, packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const names = Object.keys({
    ...manifest.peerDependencies,
    ...manifest.devDependencies,
    ...manifest.dependencies,
  });
  const require = createRequire(join(packageDir, 'package.json'));
  return names
    .filter((name) => name.startsWith('@weft/'))
    .flatMap((name) => {
      try {
        const dir = dirname(require.resolve(`${name}/package.json`));
        return dir.startsWith(root) ? packageEntries(dir).slice(0, 1) : [];
      } catch {
        return [];
      }
    });
}

/**
 * Identifiers a block uses but neither imports nor declares (a lexical approximation: quoted strings,
 * comments and property names after `.` are ignored; words in template literals count, so `${NAME}` does).
 * @param {string} code
 * @returns {Set<string>}
 */
function usedNames(code) {
  const bare = code
    .replace(/\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''")
    .replaceAll('...', ' '); // template literals stay (${name} is a use), and so does a spread's name
  const declared = new Set();
  for (const match of bare.matchAll(
    /\b(?:const|let|var|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
  ))
    declared.add(match[1]);
  for (const match of bare.matchAll(/\b(?:const|let|var)\s*[{[]([^=]*)[}\]]\s*=/g))
    for (const name of (match[1] ?? '').matchAll(/([A-Za-z_$][\w$]*)\s*(?=[,}\]]|$)/g)) declared.add(name[1]);
  for (const match of bare.matchAll(/^\s*import\s+(?:type\s+)?([\s\S]*?)\s+from\s/gm))
    for (const name of (match[1] ?? '').matchAll(/([A-Za-z_$][\w$]*)\s*(?=[,}]|$)/g)) declared.add(name[1]);
  const used = new Set();
  for (const match of bare.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)/g))
    if (!declared.has(match[1])) used.add(match[1]);
  return used;
}

/**
 * Runs `tsc` once over `files` with the repository's compiler options (plus the `@weft/source` condition)
 * and parses its diagnostics.
 * @param {string} root
 * @param {string[]} files
 * @param {string} configDir
 * @returns {Promise<DocDiagnostic[]>}
 */
async function compile(root, files, configDir) {
  mkdirSync(configDir, { recursive: true });
  const config = join(configDir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: {
        noEmit: true,
        allowImportingTsExtensions: true,
        customConditions: ['@weft/source'],
        moduleDetection: 'force',
        noUnusedLocals: false,
        noUnusedParameters: false,
        verbatimModuleSyntax: false,
        isolatedModules: false,
        typeRoots: [join(root, 'node_modules/@types')],
      },
      files,
    }),
  );
  const tsc = join(
    dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')),
    'bin/tsc',
  );
  // One thread: on a busy 2-core machine tsc's worker threads only wait on each other (measured: 7.0 s
  // single-threaded vs 8.3 s with its default checkers, idle).
  const output = await run(process.execPath, [tsc, '-p', config, '--pretty', 'false', '--singleThreaded'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (result) => result.stdout,
    (/** @type {{ stdout?: string, stderr?: string, code?: number }} */ error) => {
      if (!error.stdout) throw new Error(`tsc failed without diagnostics: ${error.stderr ?? error}`);
      return error.stdout;
    },
  );
  /** @type {DocDiagnostic[]} */
  const diagnostics = [];
  for (const line of output.split('\n')) {
    const found = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (found)
      diagnostics.push({
        file: resolve(root, found[1] ?? ''),
        line: Number(found[2]),
        column: Number(found[3]),
        code: found[4] ?? '',
        message: found[5] ?? '',
      });
    else if (/^\s/.test(line) && diagnostics.length > 0) {
      const last = diagnostics[diagnostics.length - 1];
      if (last) last.message += `\n${line}`;
    }
  }
  return diagnostics;
}
