// Cold start: a fresh `node` process per sample imports the engine's built package and reports how long
// the import took (measured inside the child, so Node's own start-up is not counted) and its used heap.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Engine, type Measurement, median } from '../harness.ts';
import { engineLabel, formatBytes, measurementRow, type Row } from '../table.ts';
import { type BenchContext, pick, type Workload } from '../workload.ts';

const BENCH_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** What each child imports. The floor imports a one-line module: the cost of `import()` itself. */
const IMPORTS: Record<Engine, readonly string[]> = {
  weft: ['@weft/compose'],
  langgraph: ['@langchain/langgraph'],
  floor: ['data:text/javascript,export const StateGraph = class {}'],
};

/** A StateGraph user also loads zod for the schema; LangGraph loads its own zod inside. */
const WITH_ZOD: Record<Engine, readonly string[]> = {
  weft: ['@weft/compose', 'zod'],
  langgraph: ['@langchain/langgraph', 'zod'],
  floor: ['zod'],
};

interface ChildReport {
  readonly importMs: number;
  readonly heapBytes: number;
  readonly wallMs: number;
}

/** Plain node on the built packages: no tsx, no source condition, as a user's process starts. */
function spawnOnce(specifiers: readonly string[]): ChildReport {
  const [first, ...rest] = specifiers;
  // The first module of an engine must export StateGraph (zod alone, the floor with zod, has no check).
  const check = first === 'zod' ? 'false' : "typeof first.StateGraph !== 'function'";
  const script = [
    'const started = performance.now();',
    `const first = await import(${JSON.stringify(first)});`,
    ...rest.map((specifier) => `await import(${JSON.stringify(specifier)});`),
    'const importMs = performance.now() - started;',
    `if (${check}) process.exit(2);`,
    "console.log('ok', importMs, process.memoryUsage().heapUsed);",
  ].join('\n');
  const wallStart = performance.now();
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: BENCH_DIR,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const wallMs = performance.now() - wallStart;
  const [word, importMs, heap] = output.trim().split(/\s+/);
  if (word !== 'ok') throw new Error(`the child printed "${output.trim()}"`);
  return { importMs: Number(importMs), heapBytes: Number(heap), wallMs };
}

/** Spawns this process's engines in turns (A/B/C/A/B/C… across processes) and makes one row. */
async function measureRow(
  context: BenchContext,
  workload: string,
  imports: Record<Engine, readonly string[]>,
  note: string,
): Promise<Row> {
  const samples = pick(context, 9, 3);
  const engines = context.engines;
  context.log(`  ${workload} (${samples} spawns per engine)`);
  const reports: Record<Engine, ChildReport[]> = { weft: [], langgraph: [], floor: [] };
  const errors: Partial<Record<Engine, string>> = {};
  for (const engine of engines) spawnSafely(engine, imports, errors); // warm the file cache
  for (let i = 0; i < samples; i++) {
    for (const engine of engines) {
      await context.turn();
      const report = spawnSafely(engine, imports, errors);
      if (report) reports[engine].push(report);
    }
  }
  const measurements: Measurement[] = engines.map((engine) => {
    const importMs = reports[engine].map((r) => r.importMs);
    return {
      engine,
      medianMs: errors[engine] ? Number.NaN : median(importMs),
      samplesMs: importMs,
      allocatedBytes: median(reports[engine].map((r) => r.heapBytes)),
      ...(errors[engine] ? { error: errors[engine] } : {}),
    };
  });
  const wall = engines
    .map((engine) => `${engineLabel(engine)} ${median(reports[engine].map((r) => r.wallMs)).toFixed(0)} ms`)
    .join(', ');
  const row = measurementRow(
    { workload, unit: 'ms', notes: [note, `whole process (node start-up included): ${wall}`] },
    measurements,
  );
  const heap = engines
    .map((engine) => `${engineLabel(engine)} ${formatBytes(median(reports[engine].map((r) => r.heapBytes)))}`)
    .join(' · ');
  return { ...row, heap };
}

function spawnSafely(
  engine: Engine,
  imports: Record<Engine, readonly string[]>,
  errors: Partial<Record<Engine, string>>,
): ChildReport | undefined {
  try {
    return spawnOnce(imports[engine]);
  } catch (error) {
    errors[engine] = error instanceof Error ? error.message : String(error);
    return undefined;
  }
}

export const coldImportWorkload: Workload = {
  name: 'cold-import',
  async run(context: BenchContext) {
    return [
      await measureRow(
        context,
        'cold import: the engine alone',
        IMPORTS,
        'import() time inside a fresh node process, built packages; floor = a one-line module; heap = used heap after',
      ),
      await measureRow(
        context,
        'cold import: the engine + zod',
        WITH_ZOD,
        'as above, also importing zod (a StateGraph schema needs it); floor = zod alone',
      ),
    ];
  },
};
