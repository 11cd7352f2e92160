// Every ```ts block the site's own pages show runs in CI (issue #50, 7): each belongs to a module with a
// block marked `run` (`<!-- doc-example: run -->` or `continues run`), which examples/src/doc-examples-run.test.ts
// runs and holds to the ```text output the page shows; all of them are compiled by doc-examples.test.ts.
// Here: that no block of the site escapes that — none is compile-only, and the only skipped ones show a
// peer framework's code on a migration page (Mastra's, which needs Node.js 22), saying so.
import { describe, expect, test } from 'vitest';
import { runnableModules } from '../../../scripts/doc-examples/run.mjs';
import { repositoryDocBlocks } from '../../../scripts/doc-examples/sources.mjs';
import { repositoryRoot } from '../scripts/paths.ts';

const site = repositoryDocBlocks(repositoryRoot).filter((block) => block.file.startsWith('apps/docs/src/'));

describe("the site's code blocks", () => {
  test('there are many, on every kind of page', () => {
    expect(site.length).toBeGreaterThan(40);
    for (const section of ['tutorials', 'concepts', 'how-to', 'migrate'])
      expect(
        site.some((block) => block.file.startsWith(`apps/docs/src/${section}/`)),
        section,
      ).toBe(true);
  });

  test("every block runs: each belongs to a module that runs, except a peer's code on a migration page", () => {
    const running = new Set(runnableModules(site).flat());
    const peersCode = (block: (typeof site)[number]) =>
      block.marker.kind === 'skip' &&
      block.file.startsWith('apps/docs/src/migrate/') &&
      /^(LangGraph\.js|Google ADK|Eino|Mastra)'s code, shown for comparison/.test(block.marker.reason ?? '');
    const notRun = site
      .filter((block) => !running.has(block) && !peersCode(block))
      .map((block) => `${block.file}:${block.line}`);
    expect(notRun).toEqual([]);
  });

  test('every block marked to run says what it prints', () => {
    const silent = site
      .filter((block) => block.marker.run && block.expected === undefined)
      .map((block) => `${block.file}:${block.line}`);
    expect(silent).toEqual([]);
  });
});
