// API reports with API Extractor: the library behind scripts/api-report.mjs (ADR 033), also driven by
// scripts/api-report.test.mjs on a fixture package.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const require = createRequire(import.meta.url);
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');

/** `./testing/conformance` → `testing-conformance`; `.` → `index`. */
export function reportName(entry) {
  return entry === '.' ? 'index' : entry.slice(2).replaceAll('/', '-');
}

/** The entries of one package: `[entry, absolute .d.ts path]` for each export that has types. */
function entriesOf(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const out = [];
  for (const [entry, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target !== 'object' || target === null || typeof target.types !== 'string') continue;
    out.push([entry, join(dir, target.types)]);
  }
  return { name: pkg.name, entries: out };
}

const messages = {
  compilerMessageReporting: { default: { logLevel: 'error' } },
  extractorMessageReporting: {
    default: { logLevel: 'none', addToApiReportFile: true },
    // Release tags (@public/@beta) are not this project's convention: every exported name is public.
    'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
  },
  // TSDoc syntax is checked by Biome and the docs build, not repeated here.
  tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
};

/**
 * Makes the API report of every typed entry of each package in `dirs` and compares it with the one in
 * `<dir>/api/<entry>.api.md` (`update: false`), or writes it there (`update: true`).
 *
 * @returns `count` reports made; `drifted`, the entries whose report differs from the committed one
 *   (`check` only); `failed`, entries that could not be read (not built, or a compiler error), each with why.
 */
export function apiReports({ dirs, update, root }) {
  const temp = mkdtempSync(join(tmpdir(), 'weft-api-'));
  const drifted = [];
  const failed = [];
  let count = 0;
  try {
    for (const dir of dirs) {
      const { name, entries } = entriesOf(dir);
      const reportFolder = join(dir, 'api');
      if (update) mkdirSync(reportFolder, { recursive: true });
      for (const [entry, dts] of entries) {
        const label = `${name}${entry === '.' ? '' : entry.slice(1)}`;
        if (!existsSync(dts)) {
          failed.push(
            `${label}: ${relative(root, dts)} is not built (run \`tsc -b tsconfig.build.json\` first)`,
          );
          continue;
        }
        const config = ExtractorConfig.prepare({
          configObject: {
            projectFolder: dir,
            // Reports are committed: line feeds, as every other file of the repository (API Extractor's default is CRLF).
            newlineKind: 'lf',
            mainEntryPointFilePath: dts,
            compiler: {
              overrideTsconfig: {
                compilerOptions: {
                  target: 'ES2022',
                  lib: ['ES2023', 'DOM'],
                  module: 'NodeNext',
                  moduleResolution: 'NodeNext',
                  strict: true,
                  exactOptionalPropertyTypes: true,
                  skipLibCheck: true,
                  types: ['node'],
                },
                files: [dts],
              },
              skipLibCheck: true,
            },
            apiReport: {
              enabled: true,
              reportFileName: reportName(entry),
              reportFolder,
              reportTempFolder: join(temp, name.replace('/', '+')),
            },
            docModel: { enabled: false },
            dtsRollup: { enabled: false },
            tsdocMetadata: { enabled: false },
            messages,
          },
          configObjectFullPath: undefined,
          packageJsonFullPath: join(dir, 'package.json'),
        });
        const result = Extractor.invoke(config, {
          localBuild: update,
          showVerboseMessages: false,
          messageCallback: (message) => {
            if (message.logLevel === 'error') failed.push(`${label}: ${message.text}`);
            // API Extractor's own progress lines are not interesting; errors are collected above.
            message.handled = true;
          },
        });
        count += 1;
        if (!update && result.apiReportChanged)
          drifted.push(`${label} (${relative(root, join(reportFolder, `${reportName(entry)}.api.md`))})`);
        if (!result.succeeded && !result.apiReportChanged) failed.push(`${label}: API Extractor failed`);
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return { count, drifted, failed };
}
