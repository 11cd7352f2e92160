import { describe, expectTypeOf, it } from 'vitest';
import { runnable } from '../runnable/lambda.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';
import { Chain } from './chain.js';
import { Graph } from './graph.js';

function nodes() {
  return new Graph<string, number>()
    .addNode('length', (text: string) => text.length)
    .addNode('double', (n: number) => n * 2)
    .addNode('shout', (text: string) => text.toUpperCase());
}

describe('dataflow edge fit', () => {
  it('accepts edges whose output fits the next input, from START and to END', () => {
    nodes()
      .addEdge(START, 'length')
      .addEdge('length', 'double')
      .addEdge('double', END)
      .addEdge(START, 'shout');
  });

  it('rejects an edge whose output does not fit the next input', () => {
    // @ts-expect-error "length" outputs a number, "shout" takes a string
    nodes().addEdge('length', 'shout');
    // @ts-expect-error the graph input is a string, "double" takes a number
    nodes().addEdge(START, 'double');
    // @ts-expect-error "shout" outputs a string, the graph outputs a number
    nodes().addEdge('shout', END);
  });

  it('rejects edges to and from unknown nodes', () => {
    // @ts-expect-error 'tpyo' is not a node
    nodes().addEdge('length', 'tpyo');
    // @ts-expect-error a join source must be a node
    nodes().addEdge(['length', 'tpyo'], 'double');
  });

  it('checks what successors receive: an outputKey wraps the output', () => {
    const keyed = new Graph<string, number>()
      .addNode('size', (text: string) => text.length, { outputKey: 'size' })
      .addNode('useSize', (input: { size: number }) => input.size)
      .addNode('useNumber', (n: number) => n);
    keyed.addEdge('size', 'useSize');
    // @ts-expect-error "size" sends { size: number }, not a number
    keyed.addEdge('size', 'useNumber');
  });

  it('lets a node with a merge take any input, and joins through it', () => {
    const merged = nodes()
      .addNode('both', (parts: unknown[]) => parts.length, {
        merge: (inputs, sources) => {
          expectTypeOf(inputs).toEqualTypeOf<readonly unknown[]>();
          expectTypeOf(sources).toEqualTypeOf<readonly string[]>();
          return inputs;
        },
      })
      .addEdge('length', 'both')
      .addEdge('shout', 'both')
      .addEdge(['length', 'shout'], 'both');
    merged.addEdge('both', END);
  });

  it('types a runnable or a compiled graph node by its input and output', () => {
    const inner = new Graph<number, string>()
      .addNode('show', (n: number) => `${n}`)
      .addEdge(START, 'show')
      .addEdge('show', END)
      .compile();
    const graph = nodes()
      .addNode('asText', inner)
      .addNode('count', runnable({ invoke: (text: string) => text.length }));
    graph.addEdge('double', 'asText').addEdge('asText', 'count').addEdge('count', END);
    // @ts-expect-error "asText" outputs a string, "double" takes a number
    graph.addEdge('asText', 'double');
  });
});

describe('dataflow router targets', () => {
  it('types the router’s input as the node’s output, and its targets', () => {
    nodes()
      .addConditionalEdges('length', (n) => {
        expectTypeOf(n).toEqualTypeOf<number>();
        return n > 3 ? 'double' : END;
      })
      .addConditionalEdges(START, (text) => {
        expectTypeOf(text).toEqualTypeOf<string>();
        return [new Send('shout', text)];
      })
      .addConditionalEdges('double', async () => 'length', ['length', END]);
  });

  it('rejects targets that are not nodes or not declared', () => {
    // @ts-expect-error 'nope' is not a node
    nodes().addConditionalEdges('length', () => 'nope');
    // @ts-expect-error 'shout' is not among the declared targets
    nodes().addConditionalEdges('length', () => 'shout', ['double']);
  });
});

describe('Chain', () => {
  it('passes each step’s output type to the next step', () => {
    const app = new Chain<string>()
      .pipe((text) => {
        expectTypeOf(text).toEqualTypeOf<string>();
        return text.split(' ');
      })
      .pipe((words) => {
        expectTypeOf(words).toEqualTypeOf<string[]>();
        return words.length;
      })
      .compile();
    expectTypeOf(app.invoke).toBeCallableWith('a b');
    // @ts-expect-error the chain takes a string
    app.invoke(1);
    expectTypeOf(app.invoke).returns.resolves.toEqualTypeOf<number>();
  });

  it('rejects a step that does not take the previous output', () => {
    // @ts-expect-error the previous step outputs a string
    new Chain<string>().pipe((n: number) => n + 1);
  });
});
