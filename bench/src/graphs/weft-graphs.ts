// The benchmark graphs built with Weft (@weft/compose). Each has a LangGraph twin and a plain-async floor.
import {
  appendReducer,
  type Checkpointer,
  END,
  type RunOptions,
  Send,
  START,
  StateGraph,
  type StreamMode,
  sumReducer,
} from '@weft/compose';
import { z } from 'zod';

/** The part of a compiled Weft graph the workloads use, independent of the builder's generics. */
export interface WeftApp<TState> {
  invoke(input: Partial<TState>, options?: RunOptions): Promise<TState>;
  stream(
    input: Partial<TState>,
    options: RunOptions & { readonly mode: StreamMode | readonly StreamMode[]; readonly batched?: false },
  ): AsyncIterable<unknown>;
  stream(
    input: Partial<TState>,
    options: RunOptions & { readonly mode: StreamMode | readonly StreamMode[]; readonly batched: true },
  ): AsyncIterable<readonly unknown[]>;
}

/** Compile options the workloads vary. */
export interface WeftCompile {
  readonly checkpointer?: Checkpointer;
  /** `false` skips checking node updates against the state schema (compose's default is to check). */
  readonly checkUpdates?: boolean;
  /** Deep-freeze the state handed to nodes (compose's development default; `pnpm bench` runs as production). */
  readonly freezeState?: boolean;
  /** `dag`: each node runs once all its predecessors are done (compose's DAG mode). */
  readonly mode?: 'pregel' | 'dag';
}

export interface Counter {
  readonly n: number;
}

export interface Items {
  readonly items: readonly number[];
  readonly count: number;
}

export interface Total {
  readonly total: number;
}

export interface MessageLog {
  readonly messages: readonly string[];
  readonly i: number;
}

const MAX_STEPS = 100_000;

/** An uncompiled Weft graph, independent of the builder's generics (`compile` may be called again). */
export interface WeftBuilder<TState> {
  compile(options?: WeftCompile & { readonly maxSteps?: number }): WeftApp<TState> & {
    readonly spec: { readonly nodes: ReadonlyMap<string, unknown> };
  };
}

/** The builder of {@link weftChain}, not compiled: `length` nodes in a line, each adding 1 to `n`. */
export function weftChainBuilder(length: number): WeftBuilder<Counter> {
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new StateGraph(z.object({ n: z.number() }));
  for (let i = 0; i < length; i++) graph = graph.addNode(`n${i}`, (state: Counter) => ({ n: state.n + 1 }));
  graph = graph.addEdge(START, 'n0');
  for (let i = 1; i < length; i++) graph = graph.addEdge(`n${i - 1}`, `n${i}`);
  return graph.addEdge(`n${length - 1}`, END);
}

/** A linear graph of `length` nodes, each adding 1 to `n`. */
export function weftChain(length: number, options: WeftCompile = {}): WeftApp<Counter> {
  return weftChainBuilder(length).compile({ maxSteps: MAX_STEPS, ...options });
}

/** `a` adds 1, `b` loops back to `a` until `n` reaches `iterations`. */
export function weftLoop(iterations: number, options: WeftCompile = {}): WeftApp<Counter> {
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('a', (state) => ({ n: state.n + 1 }))
    .addNode('b', () => ({}))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addConditionalEdges('b', (state) => (state.n < iterations ? 'a' : END), ['a', END])
    .compile({ maxSteps: MAX_STEPS, ...options });
}

/** START → `width` parallel nodes, each appending its index → a join that counts the items. */
export function weftFanout(width: number): WeftApp<Items> {
  const schema = z.object({ items: z.array(z.number()), count: z.number() });
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new StateGraph(schema, { reducers: { items: appendReducer } });
  const names: string[] = [];
  for (let i = 0; i < width; i++) {
    names.push(`p${i}`);
    graph = graph.addNode(`p${i}`, () => ({ items: [i] })).addEdge(START, `p${i}`);
  }
  graph = graph.addNode('join', (state: Items) => ({ count: state.items.length }));
  return graph.addEdge(names, 'join').addEdge('join', END).compile({ maxSteps: MAX_STEPS });
}

/**
 * DAG mode: `layers` layers of `width` nodes, each appending its number and joining the whole layer
 * before it (the first layer starts from START, the last ends at END).
 */
export function weftLayered(
  layers: number,
  width: number,
  checkpointer?: Checkpointer,
): WeftApp<{ items: number[] }> {
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new StateGraph(z.object({ items: z.array(z.number()) }), {
    reducers: { items: appendReducer },
  });
  const layer = (l: number): string[] => Array.from({ length: width }, (_, p) => `l${l}_${p}`);
  for (let l = 0; l < layers; l++) {
    for (const [p, name] of layer(l).entries()) {
      graph = graph.addNode(name, () => ({ items: [l * width + p] }));
      graph = l === 0 ? graph.addEdge(START, name) : graph.addEdge(layer(l - 1), name);
      if (l === layers - 1) graph = graph.addEdge(name, END);
    }
  }
  return graph.compile({ maxSteps: MAX_STEPS, mode: 'dag', ...(checkpointer ? { checkpointer } : {}) });
}

/** Map-reduce: `split` sends `tasks` inputs to `square`, whose results a sum reducer adds up. */
export function weftSend(tasks: number): WeftApp<Total> {
  const inputs = Array.from({ length: tasks }, (_, i) => i);
  return new StateGraph(z.object({ total: z.number() }), { reducers: { total: sumReducer } })
    .addNode('split', () => ({}))
    .addNode('square', (x: number) => ({ total: x * x }))
    .addEdge(START, 'split')
    .addConditionalEdges('split', () => inputs.map((x) => new Send('square', x)))
    .addEdge('square', END)
    .compile({ maxSteps: MAX_STEPS });
}

/** One node appending `message(i)` to an append-reduced list, looping until `steps` messages. */
export function weftMessages(
  steps: number,
  message: (i: number) => string,
  options: WeftCompile = {},
): WeftApp<MessageLog> {
  const schema = z.object({ messages: z.array(z.string()), i: z.number() });
  return new StateGraph(schema, { reducers: { messages: appendReducer } })
    .addNode('add', (state) => ({ messages: [message(state.i)], i: state.i + 1 }))
    .addEdge(START, 'add')
    .addConditionalEdges('add', (state) => (state.i < steps ? 'add' : END), ['add', END])
    .compile({ maxSteps: MAX_STEPS, ...options });
}

export interface Transcript {
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>;
  readonly i: number;
}

/** Like {@link weftMessages} with message objects: the state a freeze walks grows by one object per step. */
export function weftTranscript(steps: number, options: WeftCompile = {}): WeftApp<Transcript> {
  const message = z.object({ role: z.string(), content: z.string() });
  const schema = z.object({ messages: z.array(message), i: z.number() });
  return new StateGraph(schema, { reducers: { messages: appendReducer } })
    .addNode('add', (state) => ({ messages: [{ role: 'user', content: `m${state.i}` }], i: state.i + 1 }))
    .addEdge(START, 'add')
    .addConditionalEdges('add', (state) => (state.i < steps ? 'add' : END), ['add', END])
    .compile({ maxSteps: MAX_STEPS, ...options });
}
