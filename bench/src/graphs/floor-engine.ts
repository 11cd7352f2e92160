// The floor engine: a plain-async superstep loop with the semantics of the benchmark graphs and nothing
// else — no schema, no events, no retries, no ids. Each step runs the triggered nodes and Send tasks
// (one `await` per step: of the node's result, or of `Promise.all` when several run), applies their
// writes through the keys' reducers in task order, optionally hands the step's writes to a checkpointer,
// then plans the next step from static edges and routers. What an engine with these semantics needs at
// least; the workloads report every engine's cost as a ratio to it.

/** The end of the graph as a router target. */
export const FLOOR_END = '__end__';

/** A task with its own input (LangGraph/Weft `Send`). */
export class FloorSend {
  constructor(
    readonly node: string,
    readonly input: unknown,
  ) {}
}

type Update = Record<string, unknown> | undefined;

/** One node: a function of the state (or of a Send's input), its static successors and its router. */
export interface FloorNode {
  readonly run: (input: never) => Update | Promise<Update>;
  readonly edges?: readonly string[];
  readonly router?: (
    state: Record<string, unknown>,
  ) => string | FloorSend | ReadonlyArray<string | FloorSend>;
}

/** The writes of one step: `[node, update]` in task order. */
export type FloorWrites = ReadonlyArray<readonly [string, Update]>;

/** Stores a step's writes (see `floorMemoryCheckpointer` and the SQLite/PostgreSQL floors). */
export type FloorCheckpoint = (step: number, writes: FloorWrites) => void | Promise<void>;

/** A graph for {@link runFloor}. */
export interface FloorGraph {
  readonly nodes: Readonly<Record<string, FloorNode>>;
  /** Nodes START triggers. */
  readonly start: readonly string[];
  /** Per key, how a write combines with the value (last value wins without one). */
  readonly reducers?: Readonly<Record<string, (current: unknown, update: unknown) => unknown>>;
}

interface FloorTask {
  readonly node: string;
  readonly send: FloorSend | undefined;
}

/** Runs `graph` from `input` to the end; `checkpoint` (when given) is called after every step. */
export async function runFloor<TState extends object>(
  graph: FloorGraph,
  input: TState,
  checkpoint?: FloorCheckpoint,
): Promise<TState> {
  let state = { ...input } as Record<string, unknown>;
  let tasks: FloorTask[] = graph.start.map((node) => ({ node, send: undefined }));
  for (let step = 0; tasks.length > 0; step++) {
    const only = tasks.length === 1 ? (tasks[0] as FloorTask) : undefined;
    const updates = only
      ? [await call(graph, only, state)]
      : await Promise.all(tasks.map((task) => call(graph, task, state)));
    state = apply(graph, state, updates);
    if (checkpoint) {
      const stored = checkpoint(
        step,
        tasks.map((task, i) => [task.node, updates[i]] as const),
      );
      if (stored) await stored;
    }
    tasks = plan(graph, tasks, state);
  }
  return state as TState;
}

function call(graph: FloorGraph, task: FloorTask, state: object): Update | Promise<Update> {
  return (graph.nodes[task.node] as FloorNode).run((task.send ? task.send.input : state) as never);
}

function apply(graph: FloorGraph, state: Record<string, unknown>, updates: readonly Update[]) {
  const next = { ...state };
  for (const update of updates) {
    if (!update) continue;
    for (const key in update) {
      const reducer = graph.reducers?.[key];
      next[key] = reducer ? reducer(next[key], update[key]) : update[key];
    }
  }
  return next;
}

function plan(graph: FloorGraph, ran: readonly FloorTask[], state: Record<string, unknown>): FloorTask[] {
  const triggered = new Set<string>();
  const sends: FloorTask[] = [];
  for (const task of ran) {
    const node = graph.nodes[task.node] as FloorNode;
    for (const target of node.edges ?? []) if (target !== FLOOR_END) triggered.add(target);
    if (!node.router) continue;
    const routed = node.router(state);
    for (const target of Array.isArray(routed) ? routed : [routed]) {
      if (target instanceof FloorSend) sends.push({ node: target.node, send: target });
      else if (target !== FLOOR_END) triggered.add(target as string);
    }
  }
  const next: FloorTask[] = [];
  for (const node of triggered) next.push({ node, send: undefined });
  return next.concat(sends);
}

/** The in-memory floor checkpointer: each step's writes as JSON, appended to the thread's list. */
export function floorMemoryCheckpointer(threads: Map<string, string[]>, threadId: string): FloorCheckpoint {
  const stored: string[] = [];
  threads.set(threadId, stored);
  return (step, writes) => {
    stored.push(JSON.stringify({ step, writes }));
  };
}
