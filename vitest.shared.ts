import { defineConfig } from 'vitest/config';

/** Conditions that make workspace packages resolve to their TypeScript sources. */
export const sourceConditions = ['@weft/source'];

/**
 * The vitest config every package shares: co-located tests, type tests switched on,
 * a JSON report for the CI totals line, and workspace packages resolved to `src`.
 *
 * Timeouts only catch hangs: no test may depend on how fast a loaded 2-core machine is, so the default
 * is two minutes per test and per hook (a 200-turn agent test took 20 s at load average 100). Tests that
 * start processes (tsx-loaded workers, CLIs, browsers) set ten minutes: at load average 80 two tsx worker
 * starts took over four.
 */
export function weftVitestConfig(options: { typecheck?: boolean; testTimeout?: number } = {}) {
  return defineConfig({
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions, externalConditions: ['@weft/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: options.testTimeout ?? 120_000,
      hookTimeout: 120_000,
      reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
      typecheck: {
        enabled: options.typecheck ?? true,
        include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
        tsconfig: './tsconfig.json',
        ignoreSourceErrors: true,
      },
      coverage: { provider: 'v8', include: ['src/**'], reportsDirectory: 'test-results/coverage' },
    },
  });
}
