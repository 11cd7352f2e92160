import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ChatModel } from '@weft/adk';
import type { CompiledGraph } from '@weft/compose';
import type { ReplayStep } from '@weft/compose/maintenance';
import type { DbTarget } from './db-args.ts';
import type { DbIo } from './run-db.ts';

/** The `replay` command's usage text. */
export const replayUsage = `Usage: weft replay <thread> --module <file> --graph <name> [--db <file> | --pg <url> [--schema <name>]]

Re-runs a recorded thread's steps against the current code of a graph, each from its recorded state,
and reports per node where the new output differs from the recorded one (exit code 1 when one does).
The store is only read.

  --module <file>     the module exporting the graph
  --graph <name>      the export: a compiled graph (run as it is, with its own model), or a function
                      (model) => graph, called per step with a model answering from the step's
                      recorded model answers
  --ignore-key <key>  leave this object key out of the comparison (repeatable; default: id)
  --json              print the report as JSON
  --db <file>         SQLite file (default .weft/weft.db); --pg <url> [--schema <name>] for PostgreSQL
  -h, --help          show this help`;

type AnyGraph = CompiledGraph<never, unknown>;

function isGraph(value: unknown): value is AnyGraph {
  return typeof value === 'object' && value !== null && typeof (value as AnyGraph).withOptions === 'function';
}

/**
 * Runs `weft replay …` and resolves with its exit code: 0 every node wrote what it wrote then, 1 some
 * differ, 2 bad arguments or a failure.
 *
 * @example
 * ```ts
 * await runReplayCli(['ticket-7', '--module', 'src/graphs.ts', '--graph', 'support'], { out: console.log, err: console.error });
 * ```
 */
export async function runReplayCli(argv: readonly string[], io: DbIo): Promise<number> {
  let parsed: ReturnType<typeof parseReplay>;
  try {
    parsed = parseReplay(argv);
  } catch (error) {
    io.err(`weft replay: ${(error as Error).message}`);
    return 2;
  }
  if (parsed === 'help') {
    io.out(replayUsage);
    return 0;
  }
  const { openStore } = await import('./run-db.ts');
  const { formatReplayReport, recordedModel, replayThread } = await import('@weft/eval');
  let store: Awaited<ReturnType<typeof openStore>> | undefined;
  try {
    const module = (await import(pathToFileURL(resolve(parsed.module)).href)) as Record<string, unknown>;
    const exported = module[parsed.graph];
    if (!isGraph(exported) && typeof exported !== 'function') {
      const names = Object.keys(module).filter(
        (key) => isGraph(module[key]) || typeof module[key] === 'function',
      );
      throw new Error(
        `${parsed.module} exports no graph "${parsed.graph}" (graphs and factories: ${names.join(', ') || 'none'})`,
      );
    }
    const graph = isGraph(exported)
      ? exported
      : (step: ReplayStep) => (exported as (model: ChatModel) => AnyGraph)(recordedModel(step));
    store = await openStore(parsed.target, false);
    const report = await replayThread(parsed.thread, {
      checkpointer: store.checkpointer,
      graph,
      ignoreKeys: parsed.ignoreKeys,
    });
    io.out(parsed.json ? JSON.stringify(report, null, 2) : formatReplayReport(report));
    return report.changed === 0 ? 0 : 1;
  } catch (error) {
    io.err(`weft replay: ${(error as Error).message}`);
    return 2;
  } finally {
    await store?.checkpointer.close?.();
  }
}

function parseReplay(argv: readonly string[]):
  | 'help'
  | {
      readonly thread: string;
      readonly module: string;
      readonly graph: string;
      readonly target: DbTarget;
      readonly ignoreKeys: readonly string[];
      readonly json: boolean;
    } {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      module: { type: 'string' },
      graph: { type: 'string' },
      'ignore-key': { type: 'string', multiple: true },
      json: { type: 'boolean' },
      db: { type: 'string' },
      pg: { type: 'string' },
      schema: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const [thread, extra] = positionals;
  if (thread === undefined)
    throw new Error('weft replay takes the id of the thread to replay (weft replay --help)');
  if (extra !== undefined) throw new Error(`unexpected argument "${extra}"`);
  if (values.module === undefined)
    throw new Error('--module <file> is required: the module exporting the graph');
  if (values.graph === undefined) throw new Error('--graph <name> is required: the export to replay with');
  if (values.pg !== undefined && values.db !== undefined)
    throw new Error('give --db <file> or --pg <url>, not both');
  const target: DbTarget =
    values.pg !== undefined
      ? { kind: 'postgres', url: values.pg, schema: values.schema }
      : { kind: 'sqlite', file: values.db ?? '.weft/weft.db' };
  return {
    thread,
    module: values.module,
    graph: values.graph,
    target,
    ignoreKeys: values['ignore-key'] ?? ['id'],
    json: values.json === true,
  };
}
