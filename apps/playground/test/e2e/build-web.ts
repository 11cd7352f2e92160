import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { hasChromium } from './chromium.ts';

/** Vitest global setup: builds the web app once for the browser tests (only when they can run). */
export default async function setup(): Promise<void> {
  if (!hasChromium) return;
  await build({
    configFile: fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}
