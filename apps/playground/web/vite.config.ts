import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

/** Builds the web app into ../dist/web (served by `weft dev`); `vite web` proxies the API in development. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // Inside the repository the workspace packages resolve to their TypeScript sources, so the web app
  // builds on a fresh clone with nothing built (installed from npm, the condition matches nothing).
  resolve: { conditions: ['@weft/source', ...defaultClientConditions] },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2_500,
    // The timings report is noise in `pnpm start`.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4317' } },
});
