import { existsSync } from 'node:fs';

/** Where the browser tests expect Chromium (Debian's `chromium` package). */
export const chromiumPath = '/usr/bin/chromium';

/** True when Chromium is installed; the browser tests skip (with a message) otherwise. */
export const hasChromium = existsSync(chromiumPath);

/** The flags every browser test launches Chromium with (headless, no sandbox, no background traffic). */
export const chromiumArgs: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
