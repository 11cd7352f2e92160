// The repository's Markdown on the site: links rewritten for the site, code untouched, and the pages a
// README's images become come from the playground's browser tests.
import { describe, expect, test } from 'vitest';
import { repositoryRoot } from '../scripts/paths.ts';
import { playgroundImages, repositoryPages, rewriteLinks } from '../scripts/repository-pages.ts';
import { testsTaking } from '../scripts/screenshots.ts';
import { isHtmlElement } from '../scripts/static-markdown.ts';

const pages = repositoryPages();
const routes = new Map(pages.map((page) => [page.source, page.route]));
const rewrite = (text: string, source = 'packages/adk/README.md') =>
  rewriteLinks(text, { source, routes, root: repositoryRoot });

describe('repository pages', () => {
  test('every package README, the architecture, the ADRs, CONTRIBUTING and the bench README are pages', () => {
    const sources = pages.map((page) => page.source);
    expect(sources).toEqual(
      expect.arrayContaining([
        'packages/compose/README.md',
        'packages/adk/README.md',
        'apps/playground/README.md',
        'examples/README.md',
        'docs/architecture.md',
        'docs/adr/001-checkpoint-deltas-as-writes.md',
        'CONTRIBUTING.md',
        'bench/README.md',
      ]),
    );
    expect(sources).not.toContain('apps/docs/README.md');
    expect(new Set(pages.map((page) => page.route)).size).toBe(pages.length);
  });

  test('links to pages of the site point at them, anchors kept; other files become repository paths', () => {
    expect(rewrite('See [ADR 011](../../docs/adr/011-provider-adapters.md).')).toBe(
      'See [ADR 011](/design/adr/011-provider-adapters).',
    );
    expect(
      rewrite('[`@weft/eval`](../../packages/eval) and [guarantees](../compose/README.md#guarantees)'),
    ).toBe('[`@weft/eval`](/packages/eval) and [guarantees](/packages/compose#guarantees)');
    expect(rewrite('the [example](../../examples/src/agent.ts)')).toBe(
      'the example (`examples/src/agent.ts`)',
    );
    expect(rewrite('[https](https://example.com) [here](#concepts)')).toBe(
      '[https](https://example.com) [here](#concepts)',
    );
  });

  test('code is left alone: fenced blocks and code spans', () => {
    const text = '```md\n[a](../x.md)\n```\n`[b](../y.md)` [c](../compose/README.md)';
    expect(rewrite(text)).toBe('```md\n[a](../x.md)\n```\n`[b](../y.md)` [c](/packages/compose)');
  });

  test("the playground README's images are the screenshots its browser tests take", () => {
    expect(rewrite('![approval](docs/approval-form.png)', 'apps/playground/README.md')).toBe(
      '![approval](/screenshots/06-approval-form.png)',
    );
    expect(() => rewrite('![x](docs/hand-made.png)', 'apps/playground/README.md')).toThrow(/no screenshot/);
    const takers = testsTaking(Object.values(playgroundImages));
    expect([...takers.keys()].sort()).toEqual(Object.values(playgroundImages).sort());
  });
});

test('a tag that is no HTML element is shown as text, not compiled by Vue', () => {
  expect(isHtmlElement('<details>')).toBe(true);
  expect(isHtmlElement('</summary>')).toBe(true);
  expect(isHtmlElement('<br/>')).toBe(true);
  expect(isHtmlElement('<thread>')).toBe(false);
  expect(isHtmlElement('<effects-log>')).toBe(false);
});
