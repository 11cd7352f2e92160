// Renders every ```mermaid block of the site's pages to SVG, once per diagram (cached by its source's
// hash in .cache/mermaid), in headless Chromium with the mermaid package loaded from node_modules: no
// network, and pages carry the SVG (scripts/mermaid-fence.ts).
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath, hasChromium } from '../../playground/test/e2e/chromium.ts';
import { diagramsDir, mermaidDir, mermaidFile, mermaidKey } from './mermaid-fence.ts';
import { srcDir } from './paths.ts';

/** The ```mermaid blocks of the Markdown files under `dir`. */
export function mermaidSources(dir = srcDir): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'public') found.push(...mermaidSources(path));
      continue;
    }
    if (!name.endsWith('.md')) continue;
    for (const match of readFileSync(path, 'utf8').matchAll(/^```mermaid[ \t]*\n([\s\S]*?)^```[ \t]*$/gm))
      found.push(match[1] ?? '');
  }
  return found;
}

/**
 * Renders the diagrams that have no SVG yet, and copies every diagram of the pages into the site
 * (src/public/diagrams).
 *
 * @returns how many were rendered and how many were already there.
 * @throws Error when a diagram does not parse (naming it) or Chromium is missing and diagrams need it.
 */
export async function renderMermaid(
  sources = mermaidSources(),
): Promise<{ rendered: number; cached: number }> {
  const missing = [...new Map(sources.map((source) => [mermaidKey(source), source])).values()].filter(
    (source) => !existsSync(mermaidFile(source)),
  );
  const cached = new Set(sources.map(mermaidKey)).size - missing.length;
  if (missing.length > 0) await render(missing);
  rmSync(diagramsDir, { recursive: true, force: true });
  mkdirSync(diagramsDir, { recursive: true });
  for (const source of sources)
    copyFileSync(mermaidFile(source), join(diagramsDir, `${mermaidKey(source)}.svg`));
  return { rendered: missing.length, cached };
}

async function render(missing: readonly string[]): Promise<void> {
  if (!hasChromium)
    throw new Error(
      `${missing.length} diagrams need rendering, which needs Chromium at ${chromiumPath} (apt-get install chromium)`,
    );
  mkdirSync(mermaidDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
  try {
    const page = await browser.newPage();
    await page.route('**/*', (route) => route.abort());
    await page.setContent('<!doctype html><html><body></body></html>');
    const require = createRequire(import.meta.url);
    await page.addScriptTag({ path: require.resolve('mermaid/dist/mermaid.min.js') });
    await page.evaluate(() => {
      const api = (globalThis as unknown as { mermaid: { initialize(options: object): void } }).mermaid;
      api.initialize({
        startOnLoad: false,
        theme: 'neutral',
        securityLevel: 'strict',
        htmlLabels: false,
        flowchart: { htmlLabels: false },
      });
    });
    for (const source of missing) {
      const id = `mermaid-${mermaidKey(source)}`;
      const svg = await page
        .evaluate(
          async ([id, text]) => {
            const api = (
              globalThis as unknown as {
                mermaid: { render(id: string, text: string): Promise<{ svg: string }> };
              }
            ).mermaid;
            // Served as an image file, the SVG must be well-formed XML (`<br/>`, not `<br>`).
            const holder = document.createElement('div');
            holder.innerHTML = (await api.render(id, text)).svg;
            return new XMLSerializer().serializeToString(holder.firstElementChild as Element);
          },
          [id, source] as const,
        )
        .catch((error: unknown) => {
          throw new Error(`a mermaid diagram does not render: ${String(error)}\n${source}`);
        });
      writeFileSync(mermaidFile(source), svg);
    }
  } finally {
    await browser.close();
  }
}
