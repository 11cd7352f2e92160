// Builds the documentation site: the generated pages first (the repository's READMEs and ADRs, the API
// reference from TSDoc, the playground's screenshots from its browser tests, the diagrams), then VitePress.
//   node --import tsx scripts/build.ts         the site, in .vitepress/dist (pnpm docs:build)
//   node --import tsx scripts/build.ts --dev   the generated pages, then the dev server (pnpm docs:dev)
import { build, createServer } from 'vitepress';
import { writeApiReference } from './api-reference.ts';
import { renderMermaid } from './mermaid.ts';
import { docsDir } from './paths.ts';
import { writeRepositoryPages } from './repository-pages.ts';
import { copyScreenshots } from './screenshots.ts';

const dev = process.argv.includes('--dev');
const started = performance.now();
const timings: string[] = [];
async function step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  const at = performance.now();
  const result = await work();
  timings.push(`${name} ${((performance.now() - at) / 1000).toFixed(1)} s`);
  return result;
}

const pages = await step('repository pages', () => writeRepositoryPages());
const api = await step('API reference', () => writeApiReference());
const shots = await step('screenshots', () => copyScreenshots());
const diagrams = await step('diagrams', () => renderMermaid());
console.log(
  `[docs] ${pages.length} repository pages, API of ${api.modules} entry points, ${shots.copied.length} screenshots, ` +
    `${diagrams.rendered} diagrams rendered (${diagrams.cached} cached)`,
);
if (dev) {
  const server = await createServer(docsDir, { host: '127.0.0.1' });
  await server.listen();
  server.printUrls();
} else {
  process.env.WEFT_DOCS_STRICT = '1';
  await step('VitePress', () => build(docsDir));
  console.log(
    `[docs] built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${timings.join(', ')}`,
  );
}
