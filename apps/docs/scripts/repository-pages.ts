// The repository's own Markdown on the site: every package README (src/packages/), and the architecture,
// ADRs, contributing notes and benchmarks (src/design/). Pages are generated, not copied by hand, so the
// site says what the repository says. Links are rewritten: to another page of the site where the target
// is one, to the playground's test screenshots for its README's images, and to a plain repository path
// (`examples/src/agent.ts`) where the target is a source file the site does not carry.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import type { DefaultTheme } from 'vitepress';
import { docsDir, repositoryRoot } from './paths.ts';

/** A repository Markdown file and the site route it becomes. */
export interface RepositoryPage {
  readonly source: string;
  readonly route: string;
  readonly title: string;
}

/** The order packages are listed in; packages not named here follow, by name. */
const packageOrder = [
  'compose',
  'adk',
  'prebuilt',
  'store-sqlite',
  'store-postgres',
  'worker',
  'mcp',
  'otel',
  'eval',
  'playground',
  'create-weft',
  'examples',
];

/**
 * The playground README's hand-taken images, and the screenshot its browser tests take of the same view
 * (apps/playground/test/e2e): the site shows the tests' screenshots.
 */
export const playgroundImages: Readonly<Record<string, string>> = {
  'loop-running.png': '02-loop-running',
  'approval-form.png': '06-approval-form',
  'fork-branches.png': '05-fork-history-branches',
  'agent-streaming.png': '08-agent-streaming',
  'subgraph.png': '12-map-reduce-subgraph',
};

/** Every repository page the site carries. */
export function repositoryPages(root = repositoryRoot): RepositoryPage[] {
  const readmes: RepositoryPage[] = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      if (group === 'apps' && name === 'docs') continue;
      const source = `${group}/${name}/README.md`;
      if (existsSync(join(root, source)))
        readmes.push({ source, route: `/packages/${name}`, title: titleOf(root, source) });
    }
  }
  readmes.push({ source: 'examples/README.md', route: '/packages/examples', title: 'Examples' });
  readmes.sort((a, b) => rank(a.route) - rank(b.route) || a.route.localeCompare(b.route));
  const design: RepositoryPage[] = [
    { source: 'docs/architecture.md', route: '/design/architecture', title: 'Architecture' },
    { source: 'CONTRIBUTING.md', route: '/design/contributing', title: 'Contributing' },
    { source: 'bench/README.md', route: '/design/benchmarks', title: 'Benchmarks' },
    ...readdirSync(join(root, 'docs/adr'))
      .filter((file) => file.endsWith('.md'))
      .sort()
      .map((file) => ({
        source: `docs/adr/${file}`,
        route: `/design/adr/${file.replace(/\.md$/, '')}`,
        title: titleOf(root, `docs/adr/${file}`),
      })),
  ];
  return [...readmes, ...design];
}

function rank(route: string): number {
  const at = packageOrder.indexOf(route.replace('/packages/', ''));
  return at === -1 ? packageOrder.length : at;
}

function titleOf(root: string, source: string): string {
  const heading = /^#\s+(.+)$/m.exec(readFileSync(join(root, source), 'utf8'))?.[1] ?? source;
  return heading.replace(/`/g, '').trim();
}

/** The sidebar of the package pages. */
export function packageSidebar(): DefaultTheme.SidebarItem[] {
  const pages = repositoryPages().filter((page) => page.route.startsWith('/packages/'));
  return [{ text: 'Packages', items: pages.map((page) => ({ text: page.title, link: page.route })) }];
}

/** The sidebar of the design pages (architecture, ADRs, contributing, benchmarks). */
export function designSidebar(): DefaultTheme.SidebarItem[] {
  const pages = repositoryPages().filter((page) => page.route.startsWith('/design/'));
  return [
    {
      text: 'Design',
      items: pages
        .filter((page) => !page.route.startsWith('/design/adr/'))
        .map((page) => ({ text: page.title, link: page.route })),
    },
    {
      text: 'Decisions (ADRs)',
      collapsed: true,
      items: pages
        .filter((page) => page.route.startsWith('/design/adr/'))
        .map((page) => ({ text: page.title, link: page.route })),
    },
  ];
}

/**
 * Writes the pages into src/packages and src/design (both generated, never edited).
 *
 * @returns the pages written.
 */
export function writeRepositoryPages(root = repositoryRoot, outDir = join(docsDir, 'src')): RepositoryPage[] {
  const pages = repositoryPages(root);
  for (const folder of ['packages', 'design']) rmSync(join(outDir, folder), { recursive: true, force: true });
  const routes = new Map(pages.map((page) => [page.source, page.route]));
  for (const page of pages) {
    const text = readFileSync(join(root, page.source), 'utf8');
    const body = rewriteLinks(text, { source: page.source, routes, root });
    const file = join(outDir, `${page.route.slice(1)}.md`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      `---\ntitle: ${JSON.stringify(page.title)}\neditLink: false\n---\n\n` +
        `<p class="repository-source">This page is <code>${page.source}</code> of the repository.</p>\n\n${body}`,
    );
  }
  return pages;
}

interface RewriteContext {
  readonly source: string;
  readonly routes: ReadonlyMap<string, string>;
  readonly root: string;
}

/**
 * `text` with its relative links rewritten for the site (code blocks and code spans untouched).
 *
 * @example
 * rewriteLinks('See [ADR 011](../../docs/adr/011-provider-adapters.md).', { source: 'packages/adk/README.md', routes, root });
 * // 'See [ADR 011](/design/adr/011-provider-adapters).'
 */
export function rewriteLinks(text: string, context: RewriteContext): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      out.push(line);
      continue;
    }
    if (marker) {
      fence = marker;
      out.push(line);
      continue;
    }
    out.push(rewriteLine(line, context));
  }
  return out.join('\n');
}

function rewriteLine(text: string, context: RewriteContext): string {
  const codeSpans = [...text.matchAll(/`[^`]*`/g)].map((match) => [
    match.index,
    match.index + match[0].length,
  ]);
  return text.replace(
    /(!?)\[((?:[^\]`]|`[^`]*`)*)\]\(([^)\s]+)(\s+"[^"]*")?\)/g,
    (whole, bang: string, label: string, target: string, title: string | undefined, offset: number) => {
      if (codeSpans.some(([from = 0, to = 0]) => offset >= from && offset < to)) return whole;
      if (/^[a-z]+:/i.test(target) || target.startsWith('#') || target.startsWith('/')) return whole;
      title ??= '';
      const [path = '', anchor] = target.split('#');
      const repoPath = normalize(
        relative(context.root, resolve(context.root, dirname(context.source), path)),
      );
      if (bang) {
        const shot = repoPath.startsWith('apps/playground/docs/')
          ? playgroundImages[repoPath.split('/').pop() ?? '']
          : undefined;
        if (shot) return `![${label}](/screenshots/${shot}.png${title})`;
        throw new Error(`${context.source}: image ${target} has no screenshot from the browser tests`);
      }
      const route =
        context.routes.get(repoPath) ?? context.routes.get(`${repoPath.replace(/\/$/, '')}/README.md`);
      if (route) return `[${label}](${route}${anchor ? `#${anchor}` : ''}${title})`;
      return label === `\`${repoPath}\`` || label === repoPath
        ? `\`${repoPath}\``
        : `${label} (\`${repoPath}\`)`;
    },
  );
}
