import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { NodeContext } from '../pregel/node-context.js';
import { appendReducer, mergeReducer, sumReducer } from '../state/reducers.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';
import type { InferNodes } from './infer.js';
import { StateGraph } from './state-graph.js';

const State = z.object({
  count: z.number(),
  mood: z.enum(['calm', 'busy']),
  log: z.array(z.string()),
  total: z.number(),
  meta: z.object({ a: z.number(), b: z.string() }),
  tally: z.number(),
});
const reducers = {
  log: appendReducer,
  total: sumReducer,
  meta: mergeReducer,
  tally: (current: number, update: string) => current + update.length,
};

function base() {
  return new StateGraph(State, { reducers }).addNode('a', () => ({})).addNode('b', () => ({}));
}

describe('node names', () => {
  it('accepts edges between declared nodes, START and END', () => {
    base().addEdge(START, 'a').addEdge('a', 'b').addEdge(['a', 'b'], END);
  });

  it('rejects misspelled edge endpoints', () => {
    // @ts-expect-error 'tpyo' is not a node
    base().addEdge('a', 'tpyo');
    // @ts-expect-error 'tpyo' is not a node
    base().addEdge('tpyo', 'a');
    // @ts-expect-error a join source must be a node
    base().addEdge(['a', 'tpyo'], 'b');
    // @ts-expect-error END has no outgoing edges
    base().addEdge(END, 'a');
  });

  it('rejects duplicate and reserved node names', () => {
    // @ts-expect-error 'a' already exists
    base().addNode('a', () => ({}));
    // @ts-expect-error START is reserved
    base().addNode(START, () => ({}));
  });

  it('grows the node-name union as nodes are added', async () => {
    const app = base()
      .addNode('c', () => ({}))
      .addEdge(START, 'c')
      .addEdge('c', END)
      .compile();
    for await (const part of app.stream({}, { mode: 'updates' })) {
      expectTypeOf(part.node).toEqualTypeOf<'a' | 'b' | 'c'>();
    }
    expectTypeOf<InferNodes<typeof app>>().toEqualTypeOf<'a' | 'b' | 'c'>();
  });

  it('lets a graph built in a loop use plain string names', () => {
    let graph = new StateGraph(State) as StateGraph<typeof State, {}, string>;
    for (const name of ['x', 'y']) graph = graph.addNode(name, () => ({})).addEdge(START, name);
    expectTypeOf(graph.compile().invoke).returns.resolves.toEqualTypeOf<z.infer<typeof State>>();
  });
});

describe('router targets', () => {
  it('accepts a node, END, a list and Sends to declared nodes', () => {
    base()
      .addConditionalEdges('a', (s) => (s.count > 1 ? 'b' : END))
      .addConditionalEdges('a', () => ['a', 'b'], ['a', 'b'])
      .addConditionalEdges(START, (s) => s.log.map((item) => new Send('b', item)))
      .addConditionalEdges('b', async (s) => (s.count > 0 ? 'a' : END))
      .addConditionalEdges('b', async () => [END], [END]);
  });

  it('rejects a target that is not a node, or not among the declared targets', () => {
    // @ts-expect-error 'c' is not a node
    base().addConditionalEdges('a', () => 'c');
    // @ts-expect-error a Send to a node that does not exist
    base().addConditionalEdges('a', () => new Send('c', 1));
    // @ts-expect-error 'b' is not among the declared targets
    base().addConditionalEdges('a', () => 'b', ['a']);
    // @ts-expect-error declared targets must be nodes
    base().addConditionalEdges('a', () => 'a', ['a', 'zzz']);
  });

  it('types a Command’s goto and the goto option against declared nodes', () => {
    base().addNode('c', () => new Command({ update: { count: 1 }, goto: 'a' }), { goto: ['a', 'b', END] });
    // @ts-expect-error goto to a node that does not exist
    base().addNode('c', () => new Command({ goto: 'nowhere' }));
    // @ts-expect-error goto option naming a node that does not exist
    base().addNode('c', () => ({}), { goto: ['nowhere'] });
  });
});

describe('update types', () => {
  it('accepts partial updates, nothing, async, streamed and Command updates', () => {
    base()
      .addNode('partial', (s) => ({ count: s.count + 1, mood: 'busy' }))
      .addNode('nothing', () => undefined)
      .addNode('async', async () => ({ mood: 'calm' as const }))
      .addNode('stream', async function* () {
        yield { count: 1 };
      })
      .addNode('command', () => new Command({ update: { count: 2 } }));
  });

  it('rejects a value of the wrong type', () => {
    // @ts-expect-error count is a number
    base().addNode('c', () => ({ count: 'one' }));
    // @ts-expect-error mood is 'calm' | 'busy'
    base().addNode('c', () => ({ mood: 'sleepy' }));
    // @ts-expect-error the update of a Command is checked too
    base().addNode('c', () => new Command({ update: { mood: 'sleepy' } }));
    // @ts-expect-error an update with no state key at all
    base().addNode('c', () => ({ cuont: 1 }));
  });

  it('gives reducer keys their reducer’s update type', () => {
    base()
      .addNode('item', () => ({ log: 'one' }))
      .addNode('items', () => ({ log: ['one', 'two'] }))
      .addNode('sum', () => ({ total: 3 }))
      .addNode('merge', () => ({ meta: { a: 1 } }))
      .addNode('custom', () => ({ tally: 'abc' }));
  });

  it('rejects updates that do not fit the reducer', () => {
    // @ts-expect-error log takes a string or a list of strings
    base().addNode('c', () => ({ log: 1 }));
    // @ts-expect-error total adds numbers
    base().addNode('c', () => ({ total: '3' }));
    // @ts-expect-error meta merges a partial { a: number; b: string }
    base().addNode('c', () => ({ meta: { a: 'x' } }));
    // @ts-expect-error the custom reducer takes a string
    base().addNode('c', () => ({ tally: 3 }));
  });

  it('types the state and ctx a node receives, or the Send input it annotates', () => {
    base()
      .addNode('reader', (state, ctx) => {
        expectTypeOf(state).toEqualTypeOf<z.infer<typeof State>>();
        expectTypeOf(ctx).toEqualTypeOf<NodeContext>();
        return {};
      })
      .addNode('mapped', (item: string) => ({ log: item }));
  });

  it('types ctx.produce: the draft is the given state made writable, the result a partial of it', () => {
    base().addNode('edit', (state, ctx) => {
      const update = ctx.produce(state, (draft) => {
        draft.count = 2;
        // @ts-expect-error count is a number
        draft.count = 'two';
        // @ts-expect-error not a key of the state
        draft.missing = 1;
      });
      expectTypeOf(update).toEqualTypeOf<Partial<z.infer<typeof State>>>();
      // This state has a custom reducer (tally takes a string), so a partial state is not its update type.
      return {};
    });
  });

  it('types the run input as a partial update', () => {
    const app = base().addEdge(START, 'a').addEdge('a', END).compile();
    app.invoke({ log: 'item', total: 1 });
    // @ts-expect-error count is a number
    app.invoke({ count: 'x' });
    // @ts-expect-error not a key of the state
    app.invoke({ nope: 1 });
  });
});
