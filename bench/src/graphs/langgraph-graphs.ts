// The same graphs built with LangGraph.js (@langchain/langgraph), using its Annotation state API.
import {
  Annotation,
  type BaseCheckpointSaver,
  END,
  StateGraph as LangGraphStateGraph,
  Send,
  START,
} from '@langchain/langgraph';
import type { Counter, Items, MessageLog, Total } from './weft-graphs.ts';

/** Run config the workloads pass: a recursion limit high enough for long runs, and a thread for savers. */
export interface LangGraphConfig {
  readonly recursionLimit: number;
  readonly configurable?: { readonly thread_id: string };
  readonly streamMode?: 'updates' | 'values';
  readonly version?: 'v2';
}

/** The part of a compiled LangGraph graph the workloads use. */
export interface LangGraphApp<TState> {
  invoke(input: Partial<TState>, config?: LangGraphConfig): Promise<TState>;
  stream(input: Partial<TState>, config?: LangGraphConfig): Promise<AsyncIterable<unknown>>;
  streamEvents(input: Partial<TState>, config: LangGraphConfig): AsyncIterable<unknown>;
}

export interface LangGraphCompile {
  readonly checkpointer?: BaseCheckpointSaver;
}

/** Config for one run: `recursionLimit` covers the longest benchmark run; `threadId` for savers. */
export function langGraphConfig(threadId?: string): LangGraphConfig {
  return threadId === undefined
    ? { recursionLimit: 100_000 }
    : { recursionLimit: 100_000, configurable: { thread_id: threadId } };
}

const CounterState = Annotation.Root({ n: Annotation<number> });

const ItemsState = Annotation.Root({
  items: Annotation<number[]>({ reducer: (current, update) => current.concat(update), default: () => [] }),
  count: Annotation<number>,
});

const TotalState = Annotation.Root({
  total: Annotation<number>({ reducer: (current, update) => current + update, default: () => 0 }),
});

const MessageState = Annotation.Root({
  messages: Annotation<string[]>({ reducer: (current, update) => current.concat(update), default: () => [] }),
  i: Annotation<number>,
});

export function langGraphChain(length: number): LangGraphApp<Counter> {
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new LangGraphStateGraph(CounterState);
  for (let i = 0; i < length; i++) graph = graph.addNode(`n${i}`, (state: Counter) => ({ n: state.n + 1 }));
  graph = graph.addEdge(START, 'n0');
  for (let i = 1; i < length; i++) graph = graph.addEdge(`n${i - 1}`, `n${i}`);
  return graph.addEdge(`n${length - 1}`, END).compile();
}

export function langGraphLoop(iterations: number, options: LangGraphCompile = {}): LangGraphApp<Counter> {
  return new LangGraphStateGraph(CounterState)
    .addNode('a', (state) => ({ n: state.n + 1 }))
    .addNode('b', () => ({}))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addConditionalEdges('b', (state) => (state.n < iterations ? 'a' : END), ['a', END])
    .compile(options) as unknown as LangGraphApp<Counter>;
}

export function langGraphFanout(width: number): LangGraphApp<Items> {
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new LangGraphStateGraph(ItemsState);
  const names: string[] = [];
  for (let i = 0; i < width; i++) {
    names.push(`p${i}`);
    graph = graph.addNode(`p${i}`, () => ({ items: [i] })).addEdge(START, `p${i}`);
  }
  graph = graph.addNode('join', (state: Items) => ({ count: state.items.length }));
  return graph.addEdge(names, 'join').addEdge('join', END).compile();
}

export function langGraphSend(tasks: number): LangGraphApp<Total> {
  const inputs = Array.from({ length: tasks }, (_, i) => i);
  return new LangGraphStateGraph(TotalState)
    .addNode('split', () => ({}))
    .addNode('square', (input: { x: number }) => ({ total: input.x * input.x }))
    .addEdge(START, 'split')
    .addConditionalEdges('split', () => inputs.map((x) => new Send('square', { x })))
    .addEdge('square', END)
    .compile() as unknown as LangGraphApp<Total>;
}

export function langGraphMessages(
  steps: number,
  message: (i: number) => string,
  options: LangGraphCompile = {},
): LangGraphApp<MessageLog> {
  return new LangGraphStateGraph(MessageState)
    .addNode('add', (state) => ({ messages: [message(state.i)], i: state.i + 1 }))
    .addEdge(START, 'add')
    .addConditionalEdges('add', (state) => (state.i < steps ? 'add' : END), ['add', END])
    .compile(options) as unknown as LangGraphApp<MessageLog>;
}
