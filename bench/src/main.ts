// `pnpm bench [--quick] [--only name[,name…]]`: runs the workloads, prints one table, writes
// results/latest.json, and exits non-zero when any workload's check failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { machine } from './machine.ts';
import { type Row, renderNotes, renderTable } from './table.ts';
import type { BenchContext, Workload } from './workload.ts';
import { agentLoopWorkload } from './workloads/agent-loop.ts';
import { checkpointWorkload, storageWorkload } from './workloads/checkpoint.ts';
import { coldImportWorkload } from './workloads/cold-import.ts';
import { compileWorkload } from './workloads/compile.ts';
import { heapWorkload, warningsWorkload } from './workloads/process-health.ts';
import { chainScalingWorkload, sendWorkload } from './workloads/scaling.ts';
import { streamingWorkload } from './workloads/streaming.ts';
import { chainWorkload, fanoutWorkload, loopWorkload } from './workloads/throughput.ts';

const WORKLOADS: readonly Workload[] = [
  chainWorkload,
  loopWorkload,
  fanoutWorkload,
  sendWorkload,
  chainScalingWorkload,
  checkpointWorkload,
  storageWorkload,
  streamingWorkload,
  compileWorkload,
  agentLoopWorkload,
  coldImportWorkload,
  warningsWorkload,
  heapWorkload,
];

interface Arguments {
  readonly quick: boolean;
  readonly only: readonly string[] | undefined;
}

function parseArguments(argv: readonly string[]): Arguments {
  let quick = false;
  let only: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--only') only = (argv[++i] ?? '').split(',');
    else if (arg.startsWith('--only=')) only = arg.slice('--only='.length).split(',');
    else if (arg !== '--')
      throw new Error(`unknown argument "${arg}"; use --quick and/or --only name[,name…]`);
  }
  const known = new Set(WORKLOADS.map((w) => w.name));
  const unknown = only?.filter((name) => !known.has(name)) ?? [];
  if (unknown.length > 0) {
    throw new Error(`unknown workload(s) ${unknown.join(', ')}; choose from ${[...known].join(', ')}`);
  }
  return { quick, only };
}

/** Process warnings seen during the current workload (Node's own printer is replaced by this tally). */
const warnings = new Map<string, number>();

function tallyWarnings(): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    warnings.set(warning.name, (warnings.get(warning.name) ?? 0) + 1);
    if (process.env.WEFT_BENCH_TRACE_WARNINGS) console.error(warning.stack);
  });
}

async function runWorkload(workload: Workload, context: BenchContext): Promise<Row[]> {
  const started = performance.now();
  warnings.clear();
  context.log(`▶ ${workload.name}`);
  try {
    return await workload.run(context);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return [
      {
        workload: workload.name,
        unit: '',
        weft: 'FAIL',
        langgraph: null,
        floor: null,
        heap: '',
        failures: [`${workload.name} crashed: ${message}`],
        notes: [],
      },
    ];
  } finally {
    for (const [name, count] of warnings) context.log(`  process warnings: ${name} ×${count}`);
    context.log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  tallyWarnings();
  const context: BenchContext = {
    quick: args.quick,
    repetitions: args.quick ? { warmup: 1, reps: 3 } : { warmup: 1, reps: 5 },
    log: (message) => process.stderr.write(`${message}\n`),
  };
  const started = performance.now();
  const selected = WORKLOADS.filter((w) => args.only === undefined || args.only.includes(w.name));
  const rows: Row[] = [];
  for (const workload of selected) rows.push(...(await runWorkload(workload, context)));
  const seconds = (performance.now() - started) / 1000;

  const host = machine();
  console.log(
    `\nWeft vs LangGraph.js ${host.langGraph} vs plain async — ${args.quick ? 'quick' : 'full'} run`,
  );
  console.log(`${host.cpu}, ${host.cores} cores, node ${host.node}, ${host.date}, ${seconds.toFixed(0)} s\n`);
  console.log(renderTable(rows));
  const notes = renderNotes(rows);
  if (notes.length > 0) console.log(`\n${notes.join('\n')}`);

  const failures = rows.flatMap((row) => row.failures);
  const results = { ...host, quick: args.quick, only: args.only ?? null, seconds, rows, failures };
  mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../results/latest.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  if (failures.length > 0) console.log(`\n${failures.length} check(s) failed.`);
  return failures.length > 0 ? 1 : 0;
}

process.exitCode = await main();
