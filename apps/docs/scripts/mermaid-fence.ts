// ```mermaid blocks become the SVG that scripts/mermaid.ts rendered for them at build time (in headless
// Chromium, with the mermaid package), so a page shows its diagrams without running any script. The SVG is
// an image file of the site (src/public/diagrams): inline, its <style> would be dropped by Vue's template
// compiler, which strips style tags from page templates.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MarkdownRenderer } from 'vitepress';
import { cacheDir, srcDir } from './paths.ts';

/** Where a diagram's SVG is kept: one file per diagram source, named by its hash. */
export const mermaidDir = join(cacheDir, 'mermaid');

/** The cache key of a diagram's source. */
export function mermaidKey(source: string): string {
  return createHash('sha256').update(source.trim()).digest('hex').slice(0, 16);
}

/** The file holding the SVG of a diagram. */
export function mermaidFile(source: string): string {
  return join(mermaidDir, `${mermaidKey(source)}.svg`);
}

/** Where the site serves the diagrams (copied by scripts/mermaid.ts). */
export const diagramsDir = join(srcDir, 'public/diagrams');

/**
 * A markdown-it plugin: ```mermaid fences render as their pre-rendered SVG. A diagram that was not
 * rendered fails the build (`WEFT_DOCS_STRICT=1`, set by scripts/build.ts) or, while editing, shows its
 * source with a note.
 */
export function mermaidFence(md: MarkdownRenderer): void {
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, index, options, env, self) => {
    const token = tokens[index];
    if (token?.info.trim() !== 'mermaid') return fence ? fence(tokens, index, options, env, self) : '';
    const file = mermaidFile(token.content);
    if (existsSync(file)) {
      const label = /^\s*(\w+)/.exec(token.content)?.[1] ?? 'diagram';
      return `<p class="mermaid-diagram"><img src="/diagrams/${mermaidKey(token.content)}.svg" alt="${label} diagram" loading="lazy"></p>\n`;
    }
    if (process.env.WEFT_DOCS_STRICT === '1')
      throw new Error(
        `a mermaid diagram in ${(env as { relativePath?: string }).relativePath ?? 'a page'} was not rendered ` +
          '(scripts/build.ts renders every diagram before VitePress runs)',
      );
    return `<p><em>Diagram not rendered yet: restart <code>pnpm docs:dev</code>.</em></p><pre>${md.utils.escapeHtml(token.content)}</pre>\n`;
  };
}
