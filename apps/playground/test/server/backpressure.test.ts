// A slow browser slows the run's event delivery instead of losing events (issue #42, ADR 033): the
// playground runs a graph as the user compiled it, reads the engine's own event stream, and takes the
// next event only once its readers (the SSE responses) have caught up.
import { END, MemoryCheckpointer, START, StateGraph, StepLimitError } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { graphEntry } from '../../src/server/graph-entry.ts';
import { wireEvent } from '../../src/server/json-safe.ts';
import { LiveRun, maxReaderLag } from '../../src/server/live-run.ts';
import type { WireEvent } from '../../src/shared/wire.ts';

const chunks = 2_000;

/** A graph whose node streams `chunks` chunks, counting how many it has sent. */
function chunkyGraph(progress: { sent: number }) {
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('talk', async (state, ctx) => {
      for (let i = 0; i < chunks; i++) {
        progress.sent = i + 1;
        await ctx.chunk(`token ${i}`);
      }
      return { n: state.n + 1 };
    })
    .addEdge(START, 'talk')
    .addEdge('talk', END)
    .compile({ name: 'chunky', maxSteps: 7 });
}

/** Lets every pending promise job and I/O callback run, a fixed number of times (no clock involved). */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Starts one run of the entry the way the in-process backend does: every event pushed into `run`. */
function start(progress: { sent: number }, run: LiveRun) {
  const entry = graphEntry({ id: 'chunky', graph: chunkyGraph(progress) }, new MemoryCheckpointer());
  return entry
    .execute({
      runId: run.info.id,
      threadId: 't1',
      input: { n: 0 },
      checkpointId: undefined,
      breakpoints: { before: [], after: [] },
      signal: run.controller.signal,
      onEvent: (event) => run.push(wireEvent(event)),
    })
    .then((summary) => {
      run.finish({ status: summary.status, steps: summary.steps, interrupts: [] });
      return summary;
    });
}

describe('a slow reader of a run', () => {
  it('holds the run back while it lags, then gets every event, in order', async () => {
    const progress = { sent: 0 };
    const run = new LiveRun({ id: 'r1', threadId: 't1', graphId: 'chunky', kind: 'start' });
    const reader = run.read(-1);
    const done = start(progress, run);
    expect((await reader.next())?.type).toBe('run-start');

    // The reader stops reading: the run fills its lag allowance, then waits.
    await turns(200);
    const stalledAt = progress.sent;
    expect(run.info.status).toBe('running');
    expect(stalledAt).toBeLessThan(chunks);
    expect(run.events.length).toBeGreaterThan(maxReaderLag);
    // Bounded by the reader's allowance plus the engine stream's own queue (64), not by the run's size.
    expect(run.events.length).toBeLessThan(1 + maxReaderLag + 64 + 8);
    await turns(200);
    expect(progress.sent).toBe(stalledAt);

    // Reading again lets it go on; nothing was dropped.
    const seen: WireEvent[] = [];
    for (let event = await reader.next(); event; event = await reader.next()) seen.push(event);
    const summary = await done;
    expect(summary).toMatchObject({ status: 'done', steps: 1 });
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.filter((e) => e.type === 'chunk')).toHaveLength(chunks);
    expect(seen.at(-1)?.type).toBe('run-end');
    expect(progress.sent).toBe(chunks);
  });

  it('does not hold the run back once it stops reading, nor when nobody reads', async () => {
    const progress = { sent: 0 };
    const run = new LiveRun({ id: 'r2', threadId: 't1', graphId: 'chunky', kind: 'start' });
    const reader = run.read(-1);
    const done = start(progress, run);
    await turns(200);
    expect(progress.sent).toBeLessThan(chunks);
    reader.close();
    await expect(done).resolves.toMatchObject({ status: 'done' });
    // Every event is kept for a reader that comes later.
    expect(run.events.filter((e) => e.type === 'chunk')).toHaveLength(chunks);
    const late = run.read(-1);
    let count = 0;
    while (await late.next()) count++;
    expect(count).toBe(run.events.length);
  });

  it('lets a stop through while the reader stalls', async () => {
    const progress = { sent: 0 };
    const run = new LiveRun({ id: 'r3', threadId: 't1', graphId: 'chunky', kind: 'start' });
    run.read(-1);
    const done = start(progress, run).catch((error: unknown) => error);
    await turns(200);
    expect(progress.sent).toBeLessThan(chunks);
    run.controller.abort(new Error('stopped'));
    const outcome = await done;
    expect(outcome).toBeInstanceOf(Error);
  });

  it('runs the graph as it was compiled: its compile options hold (no recompile from the spec)', async () => {
    const loop = new StateGraph(z.object({ n: z.number() }))
      .addNode('again', (state) => ({ n: state.n + 1 }))
      .addEdge(START, 'again')
      .addConditionalEdges('again', (state) => (state.n > 1_000 ? END : 'again'))
      .compile({ name: 'forever', maxSteps: 3 });
    const entry = graphEntry({ id: 'forever', graph: loop }, new MemoryCheckpointer());
    const run = new LiveRun({ id: 'r4', threadId: 't4', graphId: 'forever', kind: 'start' });
    const failed = await entry
      .execute({
        runId: 'r4',
        threadId: 't4',
        input: { n: 0 },
        checkpointId: undefined,
        breakpoints: { before: [], after: [] },
        signal: run.controller.signal,
        onEvent: (event) => run.push(wireEvent(event)),
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StepLimitError);
    // The graph's own limit (3), not the default a graph rebuilt from its spec would get (25).
    expect(run.events.filter((e) => e.type === 'step-start' && e.path.length === 0)).toHaveLength(3);
  });
});
