import { parseArgs } from 'node:util';
import { type ArgsMatch, argsMatchSchema } from '../eval-set.js';
import { EvaluationError } from '../evaluation-error.js';

/** The `weft eval` command line, parsed. */
export interface EvalArgs {
  readonly setFile: string;
  readonly module: string;
  readonly agent?: string;
  /** Evaluate this compiled graph instead of an agent. */
  readonly graph?: string;
  readonly inputKey?: string;
  readonly outputKey?: string;
  readonly repeats: number;
  readonly concurrency: number;
  readonly json?: string;
  readonly junit?: string;
  readonly tags?: readonly string[];
  readonly judge?: string;
  /** `--threshold name=value`, in order (over `--criteria`). */
  readonly thresholds: Readonly<Record<string, number>>;
  /** A criteria file (ADK's `test_config.json`: `{ "criteria": { … } }`). */
  readonly criteriaFile?: string;
  readonly argsMatch?: ArgsMatch;
  readonly help: boolean;
}

/** Usage text of `weft eval`. */
export const EVAL_USAGE = `Usage: weft eval <eval-set.(json|yaml)> --module <file> [options]

Runs an eval set against an agent (or a compiled graph) exported by a module and exits 1 when a case
fails.

Options:
  --module, -m <file>     module exporting the agent or graph (a .ts or .js file; a playground app works)
  --agent, -a <name>      which agent (export name, app key or agent name); needed when there are several
  --graph, -g <name>      evaluate this compiled graph (export name, app key or graph name) instead
  --input-key <key>       graph: the input field a turn's text goes to (default: messages, or the one
                          string field)
  --output-key <key>      graph: the output field holding the response (default: a string output, the
                          last answer of messages, else the output as JSON)
  --repeats, -k <n>       runs per case; a case passes when any run passes (pass@k)   [1]
  --concurrency, -c <n>   case runs at once                                        [4]
  --tags <a,b>            only cases with one of these tags
  --judge <export>        a ChatModel export of the module that grades rubric cases
  --threshold <name=n>    a scorer's threshold for this run (repeatable; e.g. rouge=0.7,
                          tool_trajectory_avg_score=1): over the set file's, under a case's
  --criteria <file>       thresholds from a JSON file: Google ADK's test_config.json
                          ({ "criteria": { ... } }) or the criteria object itself
  --args-match <mode>     tool arguments: partial (default), exact, subset or ignore
  --json <file>           write the JSON report
  --junit <file>          write JUnit XML (for CI)
  --help, -h              this text`;

/**
 * Parses `weft eval` arguments.
 *
 * @throws {EvaluationError} `INVALID_ARGUMENT` naming the argument at fault.
 * @example
 * ```ts
 * const args = parseEvalArgs(['evals/calc.yaml', '--module', 'src/agents.ts', '--repeats', '3']);
 * ```
 */
export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new EvaluationError('INVALID_ARGUMENT', `weft eval: ${(error as Error).message}\n\n${EVAL_USAGE}`, {
      cause: error,
    });
  }
  const { values, positionals } = parsed;
  if (values.help) return { setFile: '', module: '', repeats: 1, concurrency: 4, thresholds: {}, help: true };
  if (positionals.length !== 1)
    throw new EvaluationError('INVALID_ARGUMENT', `weft eval: give one eval set file\n\n${EVAL_USAGE}`);
  if (!values.module)
    throw new EvaluationError('INVALID_ARGUMENT', `weft eval: --module <file> is required\n\n${EVAL_USAGE}`);
  return {
    setFile: positionals[0] as string,
    module: values.module,
    ...(values.agent ? { agent: values.agent } : {}),
    ...(values.graph ? { graph: values.graph } : {}),
    ...(values['input-key'] ? { inputKey: values['input-key'] } : {}),
    ...(values['output-key'] ? { outputKey: values['output-key'] } : {}),
    repeats: count('--repeats', values.repeats ?? '1'),
    concurrency: count('--concurrency', values.concurrency ?? '4'),
    ...(values.json ? { json: values.json } : {}),
    ...(values.junit ? { junit: values.junit } : {}),
    ...(values.tags
      ? {
          tags: values.tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        }
      : {}),
    ...(values.judge ? { judge: values.judge } : {}),
    thresholds: thresholdsOf(values.threshold ?? []),
    ...(values.criteria ? { criteriaFile: values.criteria } : {}),
    ...(values['args-match'] ? { argsMatch: argsMatchOf(values['args-match']) } : {}),
    help: false,
  };
}

/** `name=value` pairs, each value a number from 0 to 1. */
function thresholdsOf(pairs: readonly string[]): Record<string, number> {
  const thresholds: Record<string, number> = {};
  for (const pair of pairs) {
    const [name, text] = pair.split('=', 2);
    const value = Number(text);
    if (!name || text === undefined || text.trim() === '' || !(value >= 0 && value <= 1))
      throw new EvaluationError(
        'INVALID_ARGUMENT',
        `weft eval: --threshold ${pair}: a threshold is a number from 0 to 1, written name=value (e.g. rouge=0.7)`,
      );
    thresholds[name] = value;
  }
  return thresholds;
}

function argsMatchOf(text: string): ArgsMatch {
  const parsed = argsMatchSchema.safeParse(text);
  if (!parsed.success)
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `weft eval: --args-match takes partial, exact, subset or ignore, got "${text}"`,
    );
  return parsed.data;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      module: { type: 'string', short: 'm' },
      agent: { type: 'string', short: 'a' },
      graph: { type: 'string', short: 'g' },
      'input-key': { type: 'string' },
      'output-key': { type: 'string' },
      repeats: { type: 'string', short: 'k' },
      concurrency: { type: 'string', short: 'c' },
      json: { type: 'string' },
      junit: { type: 'string' },
      tags: { type: 'string' },
      judge: { type: 'string' },
      threshold: { type: 'string', multiple: true },
      criteria: { type: 'string' },
      'args-match': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function count(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new EvaluationError(
      'INVALID_ARGUMENT',
      `weft eval: ${name} takes a whole number >= 1, got "${text}"`,
    );
  return value;
}
