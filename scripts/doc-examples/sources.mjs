// Which files hold documentation code: the repository's Markdown files and its packages' TypeScript sources.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractMarkdownBlocks, extractTsdocExamples } from './extract.mjs';

/**
 * Every documentation code block of the repository at `root`: the ```ts blocks of its Markdown files
 * (READMEs, docs/; test fixtures and API reports excluded) and the `@example` blocks of `packages/*\/src` (tests excluded).
 * Files are those git tracks or would track (untracked, not ignored).
 *
 * @param {string} root - the repository root.
 * @returns {import('./extract.mjs').DocBlock[]}
 * @example
 * const blocks = repositoryDocBlocks(root);
 * blocks.filter((block) => block.source === 'readme').length; // the README blocks
 */
export function repositoryDocBlocks(root) {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((file) => file !== '' && !file.includes('/fixtures/') && !file.includes('node_modules/'));
  const unique = [...new Set(files)].sort();
  // API reports (`<package>/api/*.api.md`, scripts/api-report.mjs) are generated declarations, not examples.
  const markdown = unique.filter((file) => file.endsWith('.md') && !file.endsWith('.api.md'));
  const sources = unique.filter(
    (file) => /^packages\/[^/]+\/src\/.*\.ts$/.test(file) && !/\.test(-d)?\.ts$/.test(file),
  );
  return [
    ...markdown.flatMap((file) => extractMarkdownBlocks(readFileSync(join(root, file), 'utf8'), file)),
    ...sources.flatMap((file) => extractTsdocExamples(readFileSync(join(root, file), 'utf8'), file)),
  ];
}
