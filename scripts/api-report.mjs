// Type-aware API reports, one per public entry of every published package (issue #42, ADR 033).
//
// For each `exports` entry of each package built by tsconfig.build.json, API Extractor reads the built
// declaration file and writes `<package>/api/<entry>.api.md`: every exported name with its signature, values
// and types alike. The reports are committed, so a change to a public surface is a reviewed diff.
//
//   node scripts/api-report.mjs           check: fail (exit 1) naming each entry whose report drifted
//   node scripts/api-report.mjs --update  rewrite the committed reports
//
// Both need the declarations built first (`tsc -b tsconfig.build.json`; `pnpm api:check` and `pnpm api:update`
// do that). One run reads the 27 entries in about 30 seconds.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const require = createRequire(import.meta.url);
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');

const root = new URL('..', import.meta.url).pathname;
const update = process.argv.includes('--update');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

/** Every package directory that tsconfig.build.json builds. */
function packageDirs() {
  const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  return build.references.map((ref) => dirname(join(root, ref.path)));
}

/** `./testing/conformance` → `testing-conformance`; `.` → `index`. */
function reportName(entry) {
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

const temp = mkdtempSync(join(tmpdir(), 'weft-api-'));
const drifted = [];
const failed = [];
let count = 0;
try {
  for (const dir of packageDirs()) {
    const { name, entries } = entriesOf(dir);
    if (only.length > 0 && !only.includes(name)) continue;
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

if (failed.length > 0) {
  console.error(`API reports could not be made:\n  ${failed.join('\n  ')}`);
  process.exit(1);
}
if (drifted.length > 0) {
  console.error(
    `The public API changed in ${drifted.length} entr${drifted.length === 1 ? 'y' : 'ies'}:\n  ${drifted.join('\n  ')}\n` +
      'Review the change, then run `pnpm api:update` and commit the updated reports.',
  );
  process.exit(1);
}
console.log(`${count} API reports ${update ? 'written' : 'match the committed ones'}.`);
