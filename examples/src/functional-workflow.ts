/**
 * The functional API: a research workflow written as plain async code. `entrypoint` compiles it to a
 * graph; each `task` call's result is checkpointed as it finishes, so when the workflow pauses for a
 * human (`interrupt()` inside a task) and the process "restarts" (a new workflow and store over the same
 * SQLite file), the resumed run gets the finished calls' results back without calling them again.
 * `entrypoint.final` returns the report and saves a tally that the next turn reads as `ctx.previous`.
 * Run it with `pnpm --filter @weft/examples functional`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from '@weft/compose';
import { type EntrypointContext, entrypoint, interrupt, task } from '@weft/compose/func';
import { SqliteCheckpointer } from '@weft/store-sqlite';

/** What the workflow remembers across turns on a thread. */
export interface Tally {
  readonly reports: number;
  readonly topics: readonly string[];
}

/** Builds the workflow over a checkpoint store; `calls` counts each task's real executions. */
export function buildResearch(checkpointer: SqliteCheckpointer, calls: Record<string, number>) {
  const count = (name: string) => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const search = task('search', async (topic: string, source: string) => {
    count(`search:${source}`);
    return `${source} says ${topic} matter`;
  });
  const draft = task('draft', (topic: string, notes: readonly string[]) => {
    count('draft');
    return `${topic}: ${notes.join('; ')}.`;
  });
  const review = task('review', (text: string) => {
    count('review');
    return interrupt<{ approve: boolean; note: string }>({ question: 'Publish this draft?', text });
  });
  return entrypoint(
    { name: 'research', checkpointer, tasks: [search, draft, review] },
    async (topic: string, ctx: EntrypointContext<Tally>) => {
      const notes = await Promise.all(['wiki', 'news'].map((source) => search(topic, source)));
      const text = await draft(topic, notes);
      const verdict = await review(text);
      const previous = ctx.previous ?? { reports: 0, topics: [] };
      const report = verdict.approve ? `${text} (${verdict.note})` : 'withdrawn';
      return entrypoint.final({
        value: { report, earlier: previous.topics },
        save: { reports: previous.reports + 1, topics: [...previous.topics, topic] },
      });
    },
  );
}

/** Runs two turns, the first across a simulated restart; returns the results and the execution counts. */
export async function main(print: (line: string) => void = console.log) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-functional-'));
  const filename = join(dir, 'weft.db');
  const calls: Record<string, number> = {};
  const threadId = 'research-1';
  try {
    const firstStore = new SqliteCheckpointer({ filename });
    const paused = await buildResearch(firstStore, calls).run('owls', { threadId });
    print(`first process: ${paused.status}; asks ${JSON.stringify(paused.interrupts[0]?.value)}`);
    await firstStore.close();

    const secondStore = new SqliteCheckpointer({ filename }); // "after the restart"
    const research = buildResearch(secondStore, calls);
    const first = await research.invoke(new Command({ resume: { approve: true, note: 'ok by sam' } }), {
      threadId,
    });
    print(`turn 1: ${JSON.stringify(first)}`);
    await research.run('bats', { threadId });
    const second = await research.invoke(new Command({ resume: { approve: false, note: '' } }), {
      threadId,
    });
    print(`turn 2: ${JSON.stringify(second)}`);
    print(`calls: ${JSON.stringify(calls)}`);
    await secondStore.close();
    return { first, second, calls };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
