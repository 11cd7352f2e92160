import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { sumReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import { toObservable } from './index.js';

const counter = () =>
  new StateGraph(z.object({ n: z.number().default(0) }), { reducers: { n: sumReducer } })
    .addNode('tick', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { n: 1 };
    })
    .addEdge(START, 'tick')
    .addConditionalEdges('tick', (s) => (s.n < 5 ? 'tick' : END), ['tick', END])
    .compile({ name: 'counter' });

describe('@weft/compose/rx', () => {
  it('turns a run stream into an Observable of its parts', async () => {
    const values = await lastValueFrom(
      toObservable(counter().stream({}, { mode: 'values' })).pipe(toArray()),
    );
    expect(values.map((v) => v.n)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a function gives a cold observable: each subscription runs the graph again', async () => {
    const graph = counter();
    const events = toObservable(() => graph.stream({}, { mode: 'events' }));
    const first = await firstValueFrom(events);
    const second = await firstValueFrom(events);
    expect(first.type).toBe('run-start');
    expect(second.type).toBe('run-start');
    expect(first.runId).not.toBe(second.runId);
  });

  it('unsubscribing early stops the run', async () => {
    const stream = counter().stream({}, { mode: 'updates' });
    const taken = await lastValueFrom(toObservable(stream).pipe(take(2), toArray()));
    expect(taken).toHaveLength(2);
    // The stream was returned: reading it again yields nothing, the run was cancelled.
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it("a run's error errors the observable", async () => {
    const failing = new StateGraph(z.object({ n: z.number() }))
      .addNode('boom', () => {
        throw new Error('boom');
      })
      .addEdge(START, 'boom')
      .addEdge('boom', END)
      .compile();
    await expect(lastValueFrom(toObservable(failing.stream({ n: 1 })))).rejects.toThrow(/boom/);
  });

  it('costs nothing to those who do not import it: only src/rx imports rxjs', () => {
    const root = join(import.meta.dirname, '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) files.push(path);
      }
    };
    walk(root);
    const importers = files.filter((f) => /from ['"]rxjs['"]/.test(readFileSync(f, 'utf8')));
    expect(importers.every((f) => f.startsWith(join(root, 'rx')))).toBe(true);
  });
});
