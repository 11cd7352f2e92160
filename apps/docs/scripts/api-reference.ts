// The API reference: TypeDoc reads the TSDoc of every public entry of every package (each `@weft/source`
// export of a package.json) and writes one Markdown page per exported name under src/api, with a sidebar.
// TypeDoc needs TypeScript's JavaScript compiler API, so this package pins `typescript` to 5.9 (the
// repository's own `tsc` is 7.x, the native compiler, which has none).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Application, Converter, type DeclarationReflection, ReflectionKind } from 'typedoc';
import { docsDir, repositoryRoot, srcDir } from './paths.ts';

/** A package entry point: the specifier users import and its source file. */
export interface ApiEntry {
  readonly specifier: string;
  readonly file: string;
}

/** Every public entry point of the workspace's packages (the docs site itself aside). */
export function apiEntries(root = repositoryRoot): ApiEntry[] {
  const entries: ApiEntry[] = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const dir = join(root, group, name);
      if (!existsSync(join(dir, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        exports?: Record<string, unknown>;
      };
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        const source = (target as Record<string, unknown> | null)?.['@weft/source'];
        if (typeof source !== 'string') continue;
        entries.push({
          specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          file: resolve(dir, source),
        });
      }
    }
  }
  return entries;
}

/** The site route of an entry's API page (`@weft/compose/store` → `/api/compose/store/`). */
export function apiRoute(specifier: string): string {
  return `/api/${specifier.replace(/^@weft\//, '')}/`;
}

/**
 * Generates src/api from the sources.
 *
 * @returns the number of pages and TypeDoc's warnings.
 * @throws Error when TypeDoc fails to convert the project.
 */
export async function writeApiReference(
  entries = apiEntries(),
): Promise<{ modules: number; warnings: number }> {
  const out = join(srcDir, 'api');
  rmSync(out, { recursive: true, force: true });
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entries.map((entry) => entry.file),
    tsconfig: join(docsDir, 'typedoc.tsconfig.json'),
    plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
    out,
    docsRoot: srcDir,
    readme: 'none',
    name: 'API reference',
    skipErrorChecking: true,
    excludePrivate: true,
    excludeInternal: true,
    hideGenerator: true,
    outputFileStrategy: 'modules',
    entryFileName: 'index',
    excludeScopesInPaths: true,
    hidePageHeader: true,
    // Anchors as TypeDoc names them, whatever ids the site gives headings.
    useHTMLAnchors: true,
    logLevel: 'Error',
    sidebar: { autoConfiguration: true, format: 'vitepress', pretty: false, collapsed: true },
  } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
  // Modules are named by the specifier users import, not by their folder.
  const byFile = new Map(entries.map((entry) => [entry.file, entry.specifier]));
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection: DeclarationReflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName;
    const specifier = file ? byFile.get(resolve(file)) : undefined;
    if (specifier) reflection.name = specifier;
  });
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the packages (see its errors above)');
  await app.generateOutputs(project);
  renameNumberedPages(out);
  repairAnchors(out);
  return { modules: project.children?.length ?? 0, warnings: app.logger.warningCount };
}

/**
 * TypeDoc's router numbers a module page whose name it already handed out, case-insensitively, to
 * another reflection (`@weft/compose/store` meets the `Store` interface): `compose/store-1.md`. Pages are
 * named by the specifier users import, so the number goes, and every link to it follows.
 */
function renameNumberedPages(out: string): void {
  const files = walk(out);
  const renames = files
    .filter((file) => /-1\.md$/.test(file) && !existsSync(file.replace(/-1\.md$/, '.md')))
    .map((file) => [file, file.replace(/-1\.md$/, '.md')] as const);
  for (const [from, to] of renames) renameSync(from, to);
  if (renames.length === 0) return;
  for (const file of walk(out).filter((name) => name.endsWith('.md') || name.endsWith('.json'))) {
    let text = readFileSync(file, 'utf8');
    for (const [from, to] of renames) {
      const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
      text = text.replaceAll(`/${name(from)}`, `/${name(to)}`).replaceAll(`(${name(from)}`, `(${name(to)}`);
    }
    writeFileSync(file, text);
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * typedoc-plugin-markdown writes a name with underscores as the anchor `host_prompt` but links to it from
 * comments as `#host-prompt`: each link to a missing anchor that exists with `_` for `-` is pointed at it.
 * (The link check fails on any link this does not repair.)
 */
function repairAnchors(out: string): void {
  const pages = walk(out).filter((file) => file.endsWith('.md'));
  const anchors = new Map(
    pages.map((file) => [
      file,
      new Set([...readFileSync(file, 'utf8').matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1])),
    ]),
  );
  for (const file of pages) {
    const text = readFileSync(file, 'utf8');
    const repaired = text.replace(/\]\(([^)#\s]*)#([^)\s]+)\)/g, (whole, path: string, fragment: string) => {
      const target = path === '' ? file : join(dirname(file), path);
      const ids = anchors.get(target);
      if (!ids || ids.has(fragment)) return whole;
      const underscored = fragment.replace(/-/g, '_');
      return ids.has(underscored) ? `](${path}#${underscored})` : whole;
    });
    if (repaired !== text) writeFileSync(file, repaired);
  }
}
