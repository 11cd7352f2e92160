// The floor: each benchmark computation as plain async functions, one `await` per node-step and a
// state merge per step, with no engine at all. It shows what is achievable on this machine.
import type { Counter, Items, Total } from './weft-graphs.ts';

type StepFunction<TState> = (state: TState) => Promise<Partial<TState>>;

/** Runs steps in order, merging each partial update into the state (what a chain does). */
export async function runSteps<TState extends object>(
  steps: readonly StepFunction<TState>[],
  input: TState,
): Promise<TState> {
  let state = input;
  for (const step of steps) state = { ...state, ...(await step(state)) };
  return state;
}

export function floorChain(length: number): (input: Counter) => Promise<Counter> {
  const steps = Array.from({ length }, (): StepFunction<Counter> => async (state) => ({ n: state.n + 1 }));
  return (input) => runSteps(steps, input);
}

export function floorLoop(iterations: number): (input: Counter) => Promise<Counter> {
  const a: StepFunction<Counter> = async (state) => ({ n: state.n + 1 });
  const b: StepFunction<Counter> = async () => ({});
  return async (input) => {
    let state = input;
    do {
      state = { ...state, ...(await a(state)) };
      state = { ...state, ...(await b(state)) };
    } while (state.n < iterations);
    return state;
  };
}

export function floorFanout(width: number): (input: Partial<Items>) => Promise<Items> {
  const branches = Array.from({ length: width }, (_, i) => async () => ({ items: [i] }));
  const join = async (state: Items) => ({ count: state.items.length });
  return async (input) => {
    const updates = await Promise.all(branches.map((branch) => branch()));
    let items: number[] = [...(input.items ?? [])];
    for (const update of updates) items = items.concat(update.items);
    const state: Items = { items, count: input.count ?? 0 };
    return { ...state, ...(await join(state)) };
  };
}

export function floorSend(tasks: number): (input: Total) => Promise<Total> {
  const square = async (x: number) => ({ total: x * x });
  return async (input) => {
    const updates = await Promise.all(Array.from({ length: tasks }, (_, x) => square(x)));
    let total = input.total;
    for (const update of updates) total += update.total;
    return { total };
  };
}
