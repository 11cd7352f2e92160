// Removes build outputs, test reports and turbo caches from every workspace package.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
for (const group of ['packages', 'apps']) {
  for (const dir of readdirSync(join(root, group))) {
    for (const out of ['dist', 'test-results', '.turbo', 'tsconfig.build.tsbuildinfo']) {
      rmSync(join(root, group, dir, out), { recursive: true, force: true });
    }
  }
}
rmSync(join(root, '.turbo'), { recursive: true, force: true });
