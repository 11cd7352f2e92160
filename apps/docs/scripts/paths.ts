// Where the documentation site's files are.
import { fileURLToPath } from 'node:url';

/** apps/docs, the VitePress root. */
export const docsDir = fileURLToPath(new URL('../', import.meta.url));
/** The pages' folder (VitePress `srcDir`). */
export const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
/** The built site. */
export const distDir = fileURLToPath(new URL('../.vitepress/dist/', import.meta.url));
/** The repository root. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** Where generated things that outlive a build are kept (rendered diagrams). */
export const cacheDir = fileURLToPath(new URL('../.cache/', import.meta.url));
