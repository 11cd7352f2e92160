import { existsSync } from 'node:fs';

/** Where the browser tests expect Chromium (Debian's `chromium` package). */
export const chromiumPath = '/usr/bin/chromium';

/** True when Chromium is installed; the browser tests skip (with a message) otherwise. */
export const hasChromium = existsSync(chromiumPath);
