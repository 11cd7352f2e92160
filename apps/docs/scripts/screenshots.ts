// The playground's screenshots on the site come from its browser tests, never by hand: pages refer to
// /screenshots/<name>.png, and <name>.png is what apps/playground/test/e2e saved in test-output/ as
// `shot('<name>')`. Missing ones are made by running the tests that take them.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repositoryRoot, srcDir } from './paths.ts';

const playgroundDir = join(repositoryRoot, 'apps/playground');
/** Where the playground's browser tests save their screenshots. */
export const playgroundShots = join(playgroundDir, 'test-output');

/** The screenshot names the pages under `dir` refer to. */
export function referencedScreenshots(dir = srcDir): Set<string> {
  const names = new Set<string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'public' && name !== 'api')
        for (const found of referencedScreenshots(path)) names.add(found);
    } else if (name.endsWith('.md'))
      for (const match of readFileSync(path, 'utf8').matchAll(/\/screenshots\/([\w-]+)\.png/g))
        names.add(match[1] ?? '');
  }
  return names;
}

/** The playground browser test files that save each screenshot (`shot('<name>')`). */
export function testsTaking(names: Iterable<string>): Map<string, string> {
  const e2e = join(playgroundDir, 'test/e2e');
  const found = new Map<string, string>();
  for (const file of readdirSync(e2e).filter((name) => name.endsWith('.test.ts'))) {
    const text = readFileSync(join(e2e, file), 'utf8');
    for (const name of names) if (text.includes(`shot('${name}')`)) found.set(name, `test/e2e/${file}`);
  }
  return found;
}

/**
 * Copies the referenced screenshots into src/public/screenshots, first running the browser tests that take
 * the missing ones.
 *
 * @returns the names copied and the test files run.
 * @throws Error naming a screenshot no test takes, or one still missing after its test ran.
 */
export function copyScreenshots(names = referencedScreenshots()): { copied: string[]; ran: string[] } {
  const missing = [...names].filter((name) => !existsSync(join(playgroundShots, `${name}.png`)));
  const takers = testsTaking(names);
  const unknown = [...names].filter((name) => !takers.has(name));
  if (unknown.length > 0)
    throw new Error(
      `no playground browser test takes the screenshot(s) ${unknown.join(', ')} (apps/playground/test/e2e)`,
    );
  const ran = [...new Set(missing.map((name) => takers.get(name) ?? ''))];
  if (ran.length > 0) {
    console.log(`[docs] taking screenshots with the playground's browser tests: ${ran.join(', ')}`);
    const vitest = join(
      dirname(createRequire(join(playgroundDir, 'package.json')).resolve('vitest/package.json')),
      'vitest.mjs',
    );
    execFileSync(process.execPath, [vitest, 'run', ...ran], { cwd: playgroundDir, stdio: 'inherit' });
  }
  const out = join(srcDir, 'public/screenshots');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const name of names) {
    const from = join(playgroundShots, `${name}.png`);
    if (!existsSync(from))
      throw new Error(
        `${takers.get(name)} ran but did not save ${name}.png (is Chromium at /usr/bin/chromium?)`,
      );
    copyFileSync(from, join(out, `${name}.png`));
  }
  return { copied: [...names], ran };
}
