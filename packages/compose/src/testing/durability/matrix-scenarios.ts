import { z } from 'zod';
import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import type { StateSnapshot } from '../../checkpoint/thread-state.js';
import type { CompiledGraph } from '../../graph/compiled-graph.js';
import type { RunResult } from '../../graph/run-graph.js';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import type { RunOptions } from '../../pregel/run-options.js';
import { appendReducer } from '../../state/reducers.js';
import type { StreamMode } from '../../stream/stream-modes.js';
import { END, START } from '../../vocabulary/constants.js';
import { Send } from '../../vocabulary/send.js';

/** The state every matrix graph shares: an append-only log of what ran, with the answers it got. */
export const Log = z.object({ log: z.array(z.string()).default([]) });
/** The state options of every matrix graph (the log appends). */
export const options = { reducers: { log: appendReducer } };

/** How the matrix compiles a graph: Pregel (the default) or DAG mode. */
export type MatrixMode = 'pregel' | 'dag';

/** The compile options of a matrix graph in `mode`, with the checkpointer when there is one. */
export function compileOptions(checkpointer: Checkpointer | undefined, mode: MatrixMode = 'pregel') {
  const modeOption = mode === 'dag' ? { mode: 'dag' as const } : {};
  return checkpointer ? { checkpointer, ...modeOption } : modeOption;
}

/** The slice of a compiled graph the matrix drives (methods, so any compiled graph fits). */
export interface MatrixApp {
  run(input: unknown, options?: RunOptions): Promise<RunResult<unknown>>;
  invoke(input: unknown, options?: RunOptions): Promise<unknown>;
  stream(input: unknown, options?: RunOptions & { readonly mode?: StreamMode }): AsyncIterable<unknown>;
  getState(threadId: string): Promise<StateSnapshot<unknown> | undefined>;
}

/**
 * What a matrix graph's nodes share with the test: how many times each node ran, and whether a node
 * that needs an answer asks for it with `interrupt()` or gets it inline (the reference run).
 */
export class MatrixProbe {
  readonly runs: Record<string, number> = {};

  constructor(readonly inline: boolean) {}

  /** Counts one execution of `key`. */
  ran(key: string): void {
    this.runs[key] = (this.runs[key] ?? 0) + 1;
  }

  /** The answer to `key`: inline, or through `ctx.interrupt({ ask: key })`. */
  ask(ctx: NodeContext, key: string): string {
    return this.inline ? answerFor(key) : ctx.interrupt<string>({ ask: key });
  }
}

/** The answer the test gives to the question `key` (the same inline and on resume). */
export function answerFor(key: string): string {
  return `answer(${key})`;
}

/** One graph shape of the matrix. */
export interface MatrixScenario {
  readonly name: string;
  /** Counter keys of the nodes that pause (each re-runs once on resume). */
  readonly pausing: readonly string[];
  readonly build: (probe: MatrixProbe, checkpointer: Checkpointer | undefined) => MatrixApp;
}

/** A node that logs its name. */
export function plain(probe: MatrixProbe, name: string) {
  return () => {
    probe.ran(name);
    return { log: name };
  };
}

/** A node that asks for an answer (inline or by `interrupt()`) and logs it; `then` runs before it asks. */
export function asking(probe: MatrixProbe, name: string, then?: () => void) {
  return (_state: unknown, ctx: NodeContext) => {
    probe.ran(name);
    then?.();
    return { log: `${name}:${probe.ask(ctx, name)}` };
  };
}

/** An inner graph `i1 → ask → i2` (no checkpointer: it checkpoints under its parent). */
export function innerGraph(probe: MatrixProbe, prefix: string, mode: MatrixMode = 'pregel') {
  return new StateGraph(Log, options)
    .addNode('i1', plain(probe, `${prefix}.i1`))
    .addNode('ask', asking(probe, `${prefix}.ask`))
    .addNode('i2', plain(probe, `${prefix}.i2`))
    .addEdge(START, 'i1')
    .addEdge('i1', 'ask')
    .addEdge('ask', 'i2')
    .addEdge('i2', END)
    .compile({ name: prefix, ...compileOptions(undefined, mode) });
}

/** `before → [sub, side] → after`, where `sub` is the given graph. */
export function around(
  probe: MatrixProbe,
  sub: CompiledGraph<never, unknown, string, unknown>,
  checkpointer?: Checkpointer,
  mode: MatrixMode = 'pregel',
) {
  return new StateGraph(Log, options)
    .addNode('before', plain(probe, 'before'))
    .addNode('sub', sub)
    .addNode('side', plain(probe, 'side'))
    .addNode('after', plain(probe, 'after'))
    .addEdge(START, 'before')
    .addEdge('before', 'sub')
    .addEdge('before', 'side')
    .addEdge('sub', 'after')
    .addEdge('side', 'after')
    .addEdge('after', END)
    .compile(compileOptions(checkpointer, mode));
}

/** `before → ask → after` in `mode`. */
export function singlePause(mode: MatrixMode): MatrixScenario {
  return {
    name: `${mode === 'dag' ? 'DAG: ' : ''}a single node pausing`,
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
        .compile(compileOptions(checkpointer, mode)),
  };
}

/** `before → [left, side, right] → after` in `mode`, `left` and `right` pausing. */
export function parallelPauses(mode: MatrixMode): MatrixScenario {
  return {
    name: `${mode === 'dag' ? 'DAG: ' : ''}two parallel nodes pausing`,
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
        .compile(compileOptions(checkpointer, mode)),
  };
}

const subgraph: MatrixScenario = {
  name: 'a pause inside a subgraph',
  pausing: ['inner.ask'],
  build: (probe, checkpointer) => around(probe, innerGraph(probe, 'inner'), checkpointer),
};

const parallelInSubgraph: MatrixScenario = {
  name: 'two parallel pauses inside a subgraph',
  pausing: ['inner.left', 'inner.right'],
  build: (probe, checkpointer) => {
    const inner = new StateGraph(Log, options)
      .addNode('i1', plain(probe, 'inner.i1'))
      .addNode('left', asking(probe, 'inner.left'))
      .addNode('mid', plain(probe, 'inner.mid'))
      .addNode('right', asking(probe, 'inner.right'))
      .addNode('i2', plain(probe, 'inner.i2'))
      .addEdge(START, 'i1')
      .addEdge('i1', 'left')
      .addEdge('i1', 'mid')
      .addEdge('i1', 'right')
      .addEdge(['left', 'mid', 'right'], 'i2')
      .addEdge('i2', END)
      .compile({ name: 'inner' });
    return around(probe, inner, checkpointer);
  },
};

const nestedTwice: MatrixScenario = {
  name: 'a pause inside a subgraph inside a subgraph',
  pausing: ['deep.ask'],
  build: (probe, checkpointer) => {
    const middle = new StateGraph(Log, options)
      .addNode('m1', plain(probe, 'middle.m1'))
      .addNode('deep', innerGraph(probe, 'deep'))
      .addNode('mside', plain(probe, 'middle.side'))
      .addNode('m2', plain(probe, 'middle.m2'))
      .addEdge(START, 'm1')
      .addEdge('m1', 'deep')
      .addEdge('m1', 'mside')
      .addEdge(['deep', 'mside'], 'm2')
      .addEdge('m2', END)
      .compile({ name: 'middle' });
    return around(probe, middle, checkpointer);
  },
};

const send: MatrixScenario = {
  name: 'a pause inside a Send task',
  pausing: ['work:2'],
  build: (probe, checkpointer) =>
    new StateGraph(Log, options)
      .addNode('before', plain(probe, 'before'))
      .addNode('work', (input: { item: number }, ctx: NodeContext) => {
        const key = `work:${input.item}`;
        probe.ran(key);
        return { log: input.item === 2 ? `${key}:${probe.ask(ctx, key)}` : key };
      })
      .addNode('after', plain(probe, 'after'))
      .addEdge(START, 'before')
      .addConditionalEdges('before', () => [1, 2, 3].map((item) => new Send('work', { item })))
      .addEdge('work', 'after')
      .addEdge('after', END)
      .compile(checkpointer ? { checkpointer } : {}),
};

/** Every graph shape of the pause/resume matrix. */
export const matrixScenarios: readonly MatrixScenario[] = [
  singlePause('pregel'),
  parallelPauses('pregel'),
  subgraph,
  parallelInSubgraph,
  nestedTwice,
  send,
];
