import { StateGraph } from '../../graph/state-graph.js';
import { END, START } from '../../vocabulary/constants.js';
import {
  around,
  asking,
  compileOptions,
  innerGraph,
  Log,
  type MatrixScenario,
  options,
  parallelPauses,
  plain,
  singlePause,
} from './matrix-scenarios.js';

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
      .compile(compileOptions(checkpointer, 'dag'));
  },
};

/** `before → [sub, side] → after` in DAG mode, where `sub` is `i1 → ask → i2` in DAG mode too. */
const subgraph: MatrixScenario = {
  name: 'DAG: a pause inside a DAG subgraph',
  pausing: ['inner.ask'],
  build: (probe, checkpointer) => around(probe, innerGraph(probe, 'inner', 'dag'), checkpointer, 'dag'),
};

/** The DAG column of the pause/resume matrix: the same checks on graphs compiled with `mode: 'dag'`. */
export const dagMatrixScenarios: readonly MatrixScenario[] = [
  singlePause('dag'),
  parallelPauses('dag'),
  pausedWhileRunning,
  subgraph,
];
