import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatModel } from '@weft/adk';
import { reportPassed } from '../eval-report.js';
import { type Criteria, criteriaSchema, loadEvalSet } from '../eval-set.js';
import { EvaluationError } from '../evaluation-error.js';
import { type AnyGraph, graphTarget } from '../graph-target.js';
import { formatJUnit } from '../report/format-junit.js';
import { formatReportTable } from '../report/format-table.js';
import { runEval } from '../run-eval.js';
import { llmJudge } from '../scorers/llm-judge.js';
import { responseScorer, rougeScorer } from '../scorers/response-scorer.js';
import { trajectoryScorer } from '../scorers/trajectory-scorer.js';
import { agentTarget, type EvalTarget } from '../target.js';
import { agentsOf, graphsOf, pickAgent, pickGraph } from './find-agent.js';
import { EVAL_USAGE, type EvalArgs, parseEvalArgs } from './parse-eval-args.js';

/** Where the CLI writes. */
export interface EvalCliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly cwd: string;
}

/**
 * Runs `weft eval` with the given arguments: loads the set and the module, runs the eval with progress
 * on `err`, prints the table on `out`, writes the JSON/JUnit reports asked for, and returns the exit
 * code (0 when every case passed, 1 when one failed, 2 for bad arguments or files).
 *
 * @example
 * ```ts
 * const code = await runEvalCli(['evals/calc.yaml', '--module', 'src/agents.ts'], {
 *   out: console.log, err: console.error, cwd: process.cwd(),
 * });
 * ```
 */
export async function runEvalCli(argv: readonly string[], io: EvalCliIo): Promise<number> {
  try {
    const args = parseEvalArgs(argv);
    if (args.help) {
      io.out(EVAL_USAGE);
      return 0;
    }
    const set = await loadEvalSet(resolve(io.cwd, args.setFile));
    const modulePath = resolve(io.cwd, args.module);
    const module = (await import(pathToFileURL(modulePath).href).catch((error: unknown) => {
      throw new EvaluationError(
        'TARGET_NOT_FOUND',
        `cannot load ${args.module}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    })) as Record<string, unknown>;
    const target = targetOf(module, args);
    const judge = args.judge === undefined ? undefined : module[args.judge];
    if (args.judge !== undefined && !isChatModel(judge))
      throw new EvaluationError(
        'TARGET_NOT_FOUND',
        `${args.module} exports no chat model "${args.judge}" for --judge`,
      );
    const criteria = {
      ...(args.criteriaFile ? await readCriteria(resolve(io.cwd, args.criteriaFile)) : {}),
      ...args.thresholds,
    };
    const report = await runEval({
      set,
      target,
      repeats: args.repeats,
      concurrency: args.concurrency,
      criteria,
      ...(args.argsMatch ? { argsMatch: args.argsMatch } : {}),
      ...(args.tags ? { tags: args.tags } : {}),
      scorers: [
        trajectoryScorer(),
        responseScorer(),
        rougeScorer(),
        ...(isChatModel(judge) ? [llmJudge({ model: judge })] : []),
      ],
      onProgress: (p) =>
        io.err(
          `[${p.done}/${p.total}] ${p.caseId}${args.repeats > 1 ? ` #${p.repeat + 1}` : ''} ${p.pass ? 'pass' : 'FAIL'}`,
        ),
    });
    io.out(formatReportTable(report));
    if (args.json) await writeOut(resolve(io.cwd, args.json), `${JSON.stringify(report, null, 2)}\n`);
    if (args.junit) await writeOut(resolve(io.cwd, args.junit), formatJUnit(report));
    return reportPassed(report) ? 0 : 1;
  } catch (error) {
    if (!EvaluationError.isInstance(error)) throw error;
    io.err(error.message);
    return 2;
  }
}

/** The agent, or with `--graph` the compiled graph, as an eval target. */
function targetOf(module: Readonly<Record<string, unknown>>, args: EvalArgs): EvalTarget {
  if (args.graph !== undefined) {
    if (args.agent !== undefined)
      throw new EvaluationError('INVALID_ARGUMENT', 'weft eval: give --agent or --graph, not both');
    return graphTarget(pickGraph(module, args.graph, args.module), {
      ...(args.inputKey === undefined ? {} : { inputKey: args.inputKey }),
      ...(args.outputKey === undefined ? {} : { outputKey: args.outputKey }),
    });
  }
  // A module with graphs and no agent: its only graph.
  const graphs = graphsOf(module);
  if (args.agent === undefined && agentsOf(module).size === 0 && graphs.size === 1)
    return graphTarget([...graphs.values()][0] as AnyGraph);
  return agentTarget(pickAgent(module, args.agent, args.module));
}

/** A criteria file: ADK's `test_config.json` (`{ "criteria": { … } }`) or the criteria object itself. */
async function readCriteria(path: string): Promise<Criteria> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new EvaluationError('INVALID_ARGUMENT', `--criteria ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const body = (parsed as { criteria?: unknown } | null)?.criteria ?? parsed;
  const criteria = criteriaSchema.safeParse(body);
  if (!criteria.success)
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `--criteria ${path}: ${criteria.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  return criteria.data;
}

async function writeOut(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

function isChatModel(value: unknown): value is ChatModel {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ChatModel).generate === 'function' &&
    typeof (value as ChatModel).stream === 'function'
  );
}
