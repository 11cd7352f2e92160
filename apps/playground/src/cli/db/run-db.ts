import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  checkpointStats,
  exportThread,
  importThread,
  type MaintainableCheckpointer,
  pruneCheckpoints,
  verifyCheckpoints,
} from '@weft/compose/maintenance';
import { type DbCommand, type DbTarget, dbUsage, parseDbCommand } from './db-args.ts';

/** Where the CLI writes. */
export interface DbIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/**
 * Runs `weft db …` and resolves with its exit code: 0 done, 1 `verify` found damage, 2 bad arguments or
 * a failure (its message on `err`).
 *
 * @example
 * ```ts
 * const code = await runDbCli(['stats', '--db', '.weft/weft.db'], { out: console.log, err: console.error });
 * ```
 */
export async function runDbCli(argv: readonly string[], io: DbIo): Promise<number> {
  let command: DbCommand | 'help';
  try {
    command = parseDbCommand(argv);
  } catch (error) {
    io.err(`weft db: ${(error as Error).message}`);
    return 2;
  }
  if (command === 'help') {
    io.out(dbUsage);
    return 0;
  }
  let store: { checkpointer: MaintainableCheckpointer; setup(): Promise<number> } | undefined;
  try {
    store = await openStore(command.target, command.name === 'migrate' || command.name === 'import');
    return await run(command, store, io);
  } catch (error) {
    io.err(`weft db ${command.name}: ${(error as Error).message}`);
    return 2;
  } finally {
    await store?.checkpointer.close?.();
  }
}

async function run(
  command: DbCommand,
  store: { checkpointer: MaintainableCheckpointer; setup(): Promise<number> },
  io: DbIo,
): Promise<number> {
  const { checkpointer } = store;
  switch (command.name) {
    case 'stats': {
      const stats = await checkpointStats(checkpointer, { top: command.top });
      if (command.json) io.out(JSON.stringify(stats, null, 2));
      else {
        io.out(`${stats.threads} threads, ${stats.checkpoints} checkpoints, ${bytes(stats.bytes)}`);
        io.out('by graph:');
        for (const graph of stats.graphs)
          io.out(
            `  ${graph.graph ?? '(unnamed)'}: ${graph.threads} threads, ${graph.checkpoints} checkpoints, ${bytes(graph.bytes)}`,
          );
        io.out('largest threads:');
        for (const thread of stats.largest)
          io.out(
            `  ${thread.threadId}: ${thread.checkpoints} checkpoints, ${bytes(thread.bytes)}, last write ${thread.lastWriteAt}`,
          );
      }
      return 0;
    }
    case 'prune': {
      const report = await pruneCheckpoints(checkpointer, {
        policy: command.policy,
        dryRun: !command.apply,
        ...(command.threads ? { threadIds: command.threads } : {}),
      });
      const verb = report.dryRun ? 'would delete' : 'deleted';
      io.out(
        `${report.dryRun ? 'dry run: ' : ''}${verb} ${report.deletedCheckpoints} checkpoints and ${report.deletedThreads.length} idle threads (of ${report.threads} threads)`,
      );
      for (const skip of report.skipped)
        io.out(
          `  skipped thread "${skip.threadId}"${skip.ns ? ` namespace "${skip.ns}"` : ''}: ${skip.reason === 'busy' ? 'a run holds it' : 'its head moved'}`,
        );
      if (report.dryRun) io.out('run again with --apply to delete');
      return 0;
    }
    case 'migrate':
      io.out(`checkpoint store at schema version ${await store.setup()}`);
      return 0;
    case 'verify': {
      const report = await verifyCheckpoints(checkpointer, {
        ...(command.threads ? { threadIds: command.threads } : {}),
        onIssue: (issue) => io.out(`${issue.kind}: ${issue.message}`),
      });
      io.out(
        `verified ${report.threads} threads, ${report.checkpoints} checkpoints, ${report.taskWrites} task writes: ${report.issues.length === 0 ? 'no problems' : `${report.issues.length} problems`}`,
      );
      return report.issues.length === 0 ? 0 : 1;
    }
    case 'export': {
      const text = JSON.stringify(await exportThread(checkpointer, command.thread), null, 2);
      if (command.out === undefined) io.out(text);
      else {
        writeFileSync(command.out, `${text}\n`);
        io.out(`exported thread "${command.thread}" to ${command.out}`);
      }
      return 0;
    }
    case 'import': {
      const data = JSON.parse(readFileSync(command.file, 'utf8')) as unknown;
      const done = await importThread(checkpointer, data, command.as === undefined ? {} : { as: command.as });
      io.out(
        `imported thread "${done.threadId}": ${done.checkpoints} checkpoints, ${done.writes} task writes`,
      );
      return 0;
    }
  }
}

/**
 * Opens the store; a SQLite file must exist unless the command creates one (`migrate`, `import`).
 *
 * @throws Error naming a missing SQLite file.
 */
export async function openStore(
  target: DbTarget,
  creates: boolean,
): Promise<{ checkpointer: MaintainableCheckpointer; setup(): Promise<number> }> {
  if (target.kind === 'sqlite') {
    if (!creates && !existsSync(target.file))
      throw new Error(`no database at ${target.file} (give --db <file>, or --pg <url>)`);
    if (creates) mkdirSync(dirname(target.file), { recursive: true });
    const { SqliteCheckpointer, SQLITE_SCHEMA_VERSION } = await import('@weft/store-sqlite');
    const checkpointer = new SqliteCheckpointer({ filename: target.file });
    return { checkpointer, setup: async () => SQLITE_SCHEMA_VERSION };
  }
  const { PostgresCheckpointer, POSTGRES_SCHEMA_VERSION } = await import('@weft/store-postgres');
  const checkpointer = new PostgresCheckpointer({
    connectionString: target.url,
    ...(target.schema === undefined ? {} : { schema: target.schema }),
  });
  return {
    checkpointer,
    setup: async () => {
      await checkpointer.setup();
      return POSTGRES_SCHEMA_VERSION;
    },
  };
}

function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} KiB`;
  return `${(count / 1024 / 1024).toFixed(1)} MiB`;
}
