// Builds the site once before the tests (as `pnpm docs:build` does). The build renders diagrams and takes
// the playground's screenshots in Chromium, so without /usr/bin/chromium the site tests skip (visibly),
// like every browser test here. WEFT_DOCS_BUILT=1 reuses a site already built, while editing the tests.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath, hasChromium } from '../../playground/test/e2e/chromium.ts';
import { distDir, docsDir } from '../scripts/paths.ts';

export default function setup(): void {
  if (!hasChromium) {
    console.warn(
      `\n[docs] SKIPPED: building the site needs Chromium at ${chromiumPath} (apt-get install chromium)\n`,
    );
    return;
  }
  if (process.env.WEFT_DOCS_BUILT === '1' && existsSync(join(distDir, 'index.html'))) return;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: docsDir, stdio: 'inherit' });
}
