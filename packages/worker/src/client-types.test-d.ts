import { type Checkpointer, END, MemoryCheckpointer, START, StateGraph } from '@weft/compose';
import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import type { WeftClient } from './create-client.js';
import type { RunHandle } from './run-handle.js';

const counter = new StateGraph(z.object({ count: z.number() }))
  .addNode('tick', (state) => ({ count: state.count + 1 }))
  .addEdge(START, 'tick')
  .addEdge('tick', END);
const graphs = {
  counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }),
  fixed: counter.compile({ checkpointer: new MemoryCheckpointer() }),
};
declare const client: WeftClient<typeof graphs>;
declare const open: WeftClient;

test('a typed client checks graph names and inputs, and types results', () => {
  expectTypeOf(client.submit('counter', { count: 1 })).resolves.toEqualTypeOf<RunHandle<{ count: number }>>();
  expectTypeOf(client.submit('fixed', null)).resolves.toEqualTypeOf<RunHandle<{ count: number }>>();
  // @ts-expect-error: not a graph of this deployment
  void client.submit('counterr', { count: 1 });
  // @ts-expect-error: the input does not match the graph's input
  void client.submit('counter', { count: 'one' });
});

test('an untyped client takes any name and input', () => {
  expectTypeOf(open.submit('anything', { x: 1 })).resolves.toEqualTypeOf<RunHandle<unknown>>();
});
