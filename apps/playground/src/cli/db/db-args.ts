import { parseArgs } from 'node:util';
import type { RetentionPolicy } from '@weft/compose/maintenance';

/** Where `db` commands read and write: a SQLite file or a PostgreSQL schema. */
export type DbTarget =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string | undefined };

/** One parsed `db` command. */
export type DbCommand =
  | { readonly name: 'stats'; readonly target: DbTarget; readonly top: number; readonly json: boolean }
  | {
      readonly name: 'prune';
      readonly target: DbTarget;
      readonly policy: RetentionPolicy;
      readonly apply: boolean;
      readonly threads: readonly string[] | undefined;
    }
  | { readonly name: 'migrate'; readonly target: DbTarget }
  | { readonly name: 'verify'; readonly target: DbTarget; readonly threads: readonly string[] | undefined }
  | {
      readonly name: 'export';
      readonly target: DbTarget;
      readonly thread: string;
      readonly out: string | undefined;
    }
  | {
      readonly name: 'import';
      readonly target: DbTarget;
      readonly file: string;
      readonly as: string | undefined;
    };

/** The `db` commands' usage text. */
export const dbUsage = `Usage: weft db <command> [--db <file> | --pg <url> [--schema <name>]] [options]

Looks after the checkpoint store: a SQLite file (--db, default .weft/weft.db) or PostgreSQL (--pg).

  stats [--top <n>] [--json]      threads, checkpoints and bytes, per graph, and the largest threads
  prune [rules] [--apply]         deletes what the rules drop; a dry run unless --apply
        --keep-last <n>           keep the newest n checkpoints of each thread namespace
        --max-age <age>           drop checkpoints older than this (e.g. 30d, 12h, 90m)
        --head-only               drop branches left by forks (keep the head's lineage)
        --thread-ttl <age>        delete threads idle for longer than this
        --thread <id>             only this thread (repeatable)
                                  Heads, pending interrupts and what kept checkpoints are built on
                                  always stay; threads a run holds are skipped.
  migrate                         creates or upgrades the store's tables
  verify [--thread <id>]          reads every checkpoint; reports damaged ones (exit code 1)
  export <thread> [--out <file>]  writes a thread as JSON (to stdout without --out)
  import <file> [--as <id>]       stores an exported thread (under another id with --as)
  -h, --help                      show this help`;

const AGE = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses `weft db …` arguments.
 *
 * @throws Error with a message naming the bad argument.
 * @example
 * ```ts
 * parseDbCommand(['prune', '--keep-last', '50', '--db', 'weft.db']); // a dry run keeping 50 per namespace
 * ```
 */
export function parseDbCommand(argv: readonly string[]): DbCommand | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      pg: { type: 'string' },
      schema: { type: 'string' },
      top: { type: 'string' },
      json: { type: 'boolean' },
      'keep-last': { type: 'string' },
      'max-age': { type: 'string' },
      'head-only': { type: 'boolean' },
      'thread-ttl': { type: 'string' },
      thread: { type: 'string', multiple: true },
      apply: { type: 'boolean' },
      out: { type: 'string' },
      as: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [name, argument, extra] = positionals;
  if (values.help || name === undefined) return 'help';
  if (extra !== undefined) throw new Error(`unexpected argument "${extra}" (weft db --help)`);
  const target = targetOf(values);
  const threads = values.thread;
  switch (name) {
    case 'stats':
      return { name, target, top: positiveInteger('--top', values.top ?? '10'), json: values.json === true };
    case 'prune':
      return { name, target, policy: policyOf(values), apply: values.apply === true, threads };
    case 'migrate':
      return { name, target };
    case 'verify':
      return { name, target, threads };
    case 'export':
      if (argument === undefined) throw new Error('weft db export takes the id of the thread to export');
      return { name, target, thread: argument, out: values.out };
    case 'import':
      if (argument === undefined) throw new Error('weft db import takes the file of an exported thread');
      return { name, target, file: argument, as: values.as };
    default:
      throw new Error(`unknown db command "${name}" (stats, prune, migrate, verify, export, import)`);
  }
}

function targetOf(values: { db?: string; pg?: string; schema?: string }): DbTarget {
  if (values.pg !== undefined) {
    if (values.db !== undefined) throw new Error('give --db <file> or --pg <url>, not both');
    return { kind: 'postgres', url: values.pg, schema: values.schema };
  }
  if (values.schema !== undefined) throw new Error('--schema needs --pg <url>');
  return { kind: 'sqlite', file: values.db ?? '.weft/weft.db' };
}

function policyOf(values: {
  'keep-last'?: string;
  'max-age'?: string;
  'head-only'?: boolean;
  'thread-ttl'?: string;
}): RetentionPolicy {
  const policy: { -readonly [K in keyof RetentionPolicy]: RetentionPolicy[K] } = {};
  if (values['keep-last'] !== undefined)
    policy.keepLast = positiveInteger('--keep-last', values['keep-last']);
  if (values['max-age'] !== undefined) policy.maxAgeMs = age('--max-age', values['max-age']);
  if (values['head-only']) policy.headLineageOnly = true;
  if (values['thread-ttl'] !== undefined) policy.threadTtlMs = age('--thread-ttl', values['thread-ttl']);
  if (Object.keys(policy).length === 0)
    throw new Error('weft db prune needs a rule: --keep-last, --max-age, --head-only or --thread-ttl');
  return policy;
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!(Number.isInteger(value) && value > 0))
    throw new Error(`${flag} must be a positive integer, got "${text}"`);
  return value;
}

function age(flag: string, text: string): number {
  const match = AGE.exec(text);
  const value = match ? Number(match[1]) * (UNIT[match[2] as string] as number) : Number.NaN;
  if (!(value > 0)) throw new Error(`${flag} must be an age such as 30d, 12h, 90m or 500ms, got "${text}"`);
  return value;
}
