import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Builds the web app into ../dist/web (served by `weft dev`); `vite web` proxies the API in development. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2_500,
    // The timings report is noise in `pnpm start`.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4317' } },
});
