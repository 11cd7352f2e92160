// Pages are plain Markdown: no Vue interpolation or components. Generated pages (the API reference from
// TSDoc, the repository's READMEs) quote text such as `{{` / `}}` and `<thread>` that Vue would otherwise
// read as a template, so every page's HTML is wrapped in `v-pre`, and a tag that is no HTML element
// (a placeholder such as `<effects-log>` in prose) is shown as text.
import htmlTags from 'html-tags';
import type { MarkdownRenderer } from 'vitepress';

const known = new Set<string>([...htmlTags, 'svg', 'path', 'g', 'text', 'rect', 'circle', 'line', 'polygon']);

/** True when `html` opens or closes an element HTML has (`<details>`, `</summary>`, `<br/>`). */
export function isHtmlElement(html: string): boolean {
  const name = /^<\/?([a-zA-Z][\w-]*)/.exec(html.trim())?.[1];
  return name === undefined || known.has(name.toLowerCase());
}

/** A markdown-it plugin: the rendered page is one `v-pre` element, and unknown tags are text. */
export function staticMarkdown(md: MarkdownRenderer): void {
  for (const rule of ['html_inline', 'html_block'] as const) {
    const original = md.renderer.rules[rule];
    md.renderer.rules[rule] = (tokens, index, options, env, self) => {
      const content = tokens[index]?.content ?? '';
      if (!isHtmlElement(content) && !content.trimStart().startsWith('<!--'))
        return md.utils.escapeHtml(content);
      return original ? original(tokens, index, options, env, self) : content;
    };
  }
  const render = md.render.bind(md);
  md.render = (source, env) => `<div v-pre>${render(source, env)}</div>`;
}
