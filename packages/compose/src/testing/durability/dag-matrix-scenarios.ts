import { z } from 'zod';
import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { END, START } from '../../vocabulary/constants.js';
import type { MatrixProbe, MatrixScenario } from './matrix-scenarios.js';

/** The matrix's shared state: an append-only log of what ran. */
const Log = z.object({ log: z.array(z.string()).default([]) });
const options = { reducers: { log: appendReducer } };

function compileOptions(checkpointer: Checkpointer | undefined) {
  return checkpointer ? { checkpointer, mode: 'dag' as const } : { mode: 'dag' as const };
}

function plain(probe: MatrixProbe, name: string) {
  return () => {
    probe.ran(name);
    return { log: name };
  };
}

function asking(probe: MatrixProbe, name: string, then?: () => void) {
  return (_state: unknown, ctx: NodeContext) => {
    probe.ran(name);
    then?.();
    return { log: `${name}:${probe.ask(ctx, name)}` };
  };
}

const single: MatrixScenario = {
  name: 'DAG: a single node pausing',
  pausing: ['ask'],
  build: (probe, checkpointer) =>
    new StateGraph(Log, options)
      .addNode('before', plain(probe, 'before'))
      .addNode('ask', asking(probe, 'ask'))
      .addNode('after', plain(probe, 'after'))
      .addEdge(START, 'before')
      .addEdge('before', 'ask')
      .addEdge('ask', 'after')
      .addEdge('after', END)
      .compile(compileOptions(checkpointer)),
};

const parallel: MatrixScenario = {
  name: 'DAG: two parallel nodes pausing',
  pausing: ['left', 'right'],
  build: (probe, checkpointer) =>
    new StateGraph(Log, options)
      .addNode('before', plain(probe, 'before'))
      .addNode('left', asking(probe, 'left'))
      .addNode('side', plain(probe, 'side'))
      .addNode('right', asking(probe, 'right'))
      .addNode('after', plain(probe, 'after'))
      .addEdge(START, 'before')
      .addEdge('before', 'left')
      .addEdge('before', 'side')
      .addEdge('before', 'right')
      .addEdge(['left', 'side', 'right'], 'after')
      .addEdge('after', END)
      .compile(compileOptions(checkpointer)),
};

/**
 * `before → [ask, slow, fast] → after`, `fast → tail → after`: `slow` waits for a gate `ask` opens as it
 * pauses, so the pause happens while `slow` still runs; `slow` finishes and is recorded, and `tail` (ready
 * during the pause) runs only on resume.
 */
const pausedWhileRunning: MatrixScenario = {
  name: 'DAG: a pause while a sibling still runs',
  pausing: ['ask'],
  build: (probe, checkpointer) => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    return new StateGraph(Log, options)
      .addNode('before', plain(probe, 'before'))
      .addNode(
        'ask',
        asking(probe, 'ask', () => open()),
      )
      .addNode('slow', async () => {
        await gate;
        return plain(probe, 'slow')();
      })
      .addNode('fast', plain(probe, 'fast'))
      .addNode('tail', plain(probe, 'tail'))
      .addNode('after', plain(probe, 'after'))
      .addEdge(START, 'before')
      .addEdge('before', 'ask')
      .addEdge('before', 'slow')
      .addEdge('before', 'fast')
      .addEdge('fast', 'tail')
      .addEdge(['ask', 'slow', 'tail'], 'after')
      .addEdge('after', END)
      .compile(compileOptions(checkpointer));
  },
};

/** `before → [sub, side] → after` in DAG mode, where `sub` is `i1 → ask → i2` in DAG mode too. */
const subgraph: MatrixScenario = {
  name: 'DAG: a pause inside a DAG subgraph',
  pausing: ['inner.ask'],
  build: (probe, checkpointer) => {
    const inner = new StateGraph(Log, options)
      .addNode('i1', plain(probe, 'inner.i1'))
      .addNode('ask', asking(probe, 'inner.ask'))
      .addNode('i2', plain(probe, 'inner.i2'))
      .addEdge(START, 'i1')
      .addEdge('i1', 'ask')
      .addEdge('ask', 'i2')
      .addEdge('i2', END)
      .compile({ name: 'inner', mode: 'dag' });
    return new StateGraph(Log, options)
      .addNode('before', plain(probe, 'before'))
      .addNode('sub', inner)
      .addNode('side', plain(probe, 'side'))
      .addNode('after', plain(probe, 'after'))
      .addEdge(START, 'before')
      .addEdge('before', 'sub')
      .addEdge('before', 'side')
      .addEdge(['sub', 'side'], 'after')
      .addEdge('after', END)
      .compile(compileOptions(checkpointer));
  },
};

/** The DAG column of the pause/resume matrix: the same checks on graphs compiled with `mode: 'dag'`. */
export const dagMatrixScenarios: readonly MatrixScenario[] = [single, parallel, pausedWhileRunning, subgraph];
