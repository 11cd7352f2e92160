// `pnpm bench [--quick] [--only name[,name…]] [--engine name[,name…]]`: runs the workloads, prints one
// table, writes results/latest.json, and exits non-zero when any workload's check failed. Without
// `--engine`, each engine runs in its own process and the processes take turns (see processes.ts);
// `--engine weft,floor` runs just those engines, in this process.
import { mkdirSync, writeFileSync } from 'node:fs';
import { ENGINES, type Engine } from './harness.ts';
import { machine } from './machine.ts';
import { isEngineProcess, reportRows, runEngineProcesses, takeTurn } from './processes.ts';
import { mergeRows, type Row, renderNotes, renderTable } from './table.ts';
import type { BenchContext, Workload } from './workload.ts';
import { agentLoopWorkload } from './workloads/agent-loop.ts';
import { checkpointWorkload, storageWorkload } from './workloads/checkpoint.ts';
import { coldImportWorkload } from './workloads/cold-import.ts';
import { compileWorkload } from './workloads/compile.ts';
import { dagModeWorkload } from './workloads/dag-mode.ts';
import { effectsWorkload } from './workloads/effects.ts';
import { frozenStateWorkload } from './workloads/frozen-state.ts';
import { memorySearchWorkload } from './workloads/memory-search.ts';
import { nodeCacheWorkload } from './workloads/node-cache.ts';
import { otelWorkload } from './workloads/otel.ts';
import { pgvectorSearchWorkload } from './workloads/pgvector-search.ts';
import { heapWorkload, warningsWorkload } from './workloads/process-health.ts';
import { retentionWorkload } from './workloads/retention.ts';
import { chainScalingWorkload, sendWorkload } from './workloads/scaling.ts';
import { storeSearchWorkload } from './workloads/store-search.ts';
import { streamingWorkload } from './workloads/streaming.ts';
import { chainWorkload, fanoutWorkload, loopWorkload } from './workloads/throughput.ts';
import { updateChecksWorkload } from './workloads/update-checks.ts';
import { workerWorkload } from './workloads/worker.ts';

const WORKLOADS: readonly Workload[] = [
  chainWorkload,
  loopWorkload,
  fanoutWorkload,
  sendWorkload,
  chainScalingWorkload,
  checkpointWorkload,
  storageWorkload,
  retentionWorkload,
  streamingWorkload,
  otelWorkload,
  updateChecksWorkload,
  nodeCacheWorkload,
  frozenStateWorkload,
  dagModeWorkload,
  effectsWorkload,
  compileWorkload,
  agentLoopWorkload,
  storeSearchWorkload,
  memorySearchWorkload,
  pgvectorSearchWorkload,
  coldImportWorkload,
  warningsWorkload,
  heapWorkload,
  workerWorkload,
];

/** Printed above a quick run's table and stored in its results: its figures are smoke-test figures. */
const QUICK_WARNING =
  'QUICK RUN — figures NOT COMPARABLE: samples of one invoke batch (not ≥ 1 s), 3 rounds, small sizes; ' +
  'use it to check that every workload runs and passes its checks, never to compare figures.';

interface Arguments {
  readonly quick: boolean;
  readonly only: readonly string[] | undefined;
  /** Set: run these engines in this process. Unset: one process per engine. */
  readonly engines: readonly Engine[] | undefined;
}

function parseArguments(argv: readonly string[]): Arguments {
  let quick = false;
  let only: string[] | undefined;
  let engines: Engine[] | undefined;
  const listAfter = (i: number, name: string) =>
    argv[i]!.startsWith(`--${name}=`) ? argv[i]!.slice(name.length + 3) : (argv[i + 1] ?? '');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      only = listAfter(i, 'only').split(',');
      if (arg === '--only') i++;
    } else if (arg === '--engine' || arg.startsWith('--engine=')) {
      const names = listAfter(i, 'engine').split(',');
      const wrong = names.filter((name) => !(ENGINES as readonly string[]).includes(name));
      if (wrong.length > 0)
        throw new Error(`unknown engine(s) ${wrong.join(', ')}; choose from ${ENGINES.join(', ')}`);
      engines = names as Engine[];
      if (arg === '--engine') i++;
    } else if (arg !== '--')
      throw new Error(`unknown argument "${arg}"; use --quick, --only name[,name…], --engine name[,name…]`);
  }
  const known = new Set(WORKLOADS.map((w) => w.name));
  const unknown = only?.filter((name) => !known.has(name)) ?? [];
  if (unknown.length > 0) {
    throw new Error(`unknown workload(s) ${unknown.join(', ')}; choose from ${[...known].join(', ')}`);
  }
  return { quick, only, engines };
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
        workload: `${workload.name} (crashed)`,
        unit: '',
        weft: null,
        langgraph: null,
        floor: null,
        ...Object.fromEntries(context.engines.map((engine) => [engine, 'FAIL'])),
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

/** Runs the selected workloads for `engines` in this process. */
async function measure(args: Arguments, engines: readonly Engine[]): Promise<Row[]> {
  tallyWarnings();
  const prefix = engines.length === 1 ? `[${engines[0]}] ` : '';
  const context: BenchContext = {
    quick: args.quick,
    repetitions: args.quick
      ? { warmup: 1, reps: 3, rewarmMs: 20, minSampleMs: 0 }
      : { warmup: 1, reps: 5, rewarmMs: 100, minSampleMs: 1000 },
    log: (message) => process.stderr.write(`${prefix}${message}\n`),
    engines,
    turn: takeTurn,
  };
  await takeTurn();
  const selected = WORKLOADS.filter((w) => args.only === undefined || args.only.includes(w.name));
  const rows: Row[] = [];
  for (const workload of selected) rows.push(...(await runWorkload(workload, context)));
  return rows;
}

async function main(): Promise<number> {
  // Engines are measured as deployed: compose freezes the state handed to nodes unless NODE_ENV is
  // production (the frozen-state rows measure that cost). Forked engine processes inherit it.
  process.env.NODE_ENV ??= 'production';
  const args = parseArguments(process.argv.slice(2));
  if (args.engines && isEngineProcess()) {
    await reportRows(await measure(args, args.engines));
    return 0;
  }
  const started = performance.now();
  const rows = args.engines
    ? await measure(args, args.engines)
    : mergeRows(
        await runEngineProcesses(
          ENGINES,
          process.argv.slice(2).filter((arg) => arg !== '--'),
        ),
      );
  const seconds = (performance.now() - started) / 1000;

  const host = machine();
  const layout = args.engines
    ? `engines ${args.engines.join(', ')} in one process`
    : 'one process per engine';
  console.log(
    `\nWeft vs LangGraph.js ${host.langGraph} vs plain async — ${args.quick ? 'quick' : 'full'} run, ${layout}`,
  );
  if (args.quick) console.log(`${QUICK_WARNING}`);
  console.log(`${host.cpu}, ${host.cores} cores, node ${host.node}, ${host.date}, ${seconds.toFixed(0)} s\n`);
  console.log(renderTable(rows));
  const notes = renderNotes(rows);
  if (notes.length > 0) console.log(`\n${notes.join('\n')}`);

  const failures = rows.flatMap((row) => row.failures);
  const results = {
    ...host,
    quick: args.quick,
    comparable: !args.quick,
    ...(args.quick ? { warning: QUICK_WARNING } : {}),
    only: args.only ?? null,
    layout,
    seconds,
    rows,
    failures,
  };
  mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../results/latest.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  if (failures.length > 0) console.log(`\n${failures.length} check(s) failed.`);
  return failures.length > 0 ? 1 : 0;
}

process.exitCode = await main();
