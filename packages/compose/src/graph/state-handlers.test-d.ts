import { describe, expectTypeOf, it } from 'vitest';
import { Graph } from './graph.js';

describe('state handler types', () => {
  it('types before with the node input and after with its output', () => {
    new Graph<string, number>().addNode('length', (text: string) => text.length, {
      before: (input) => {
        expectTypeOf(input).toEqualTypeOf<string>();
        return input.trim();
      },
      after: (output, state: { calls: number }) => {
        expectTypeOf(output).toEqualTypeOf<number>();
        return output + state.calls;
      },
    });
  });

  it('types beforeStream with a stream of the node input', () => {
    new Graph<string, number>().addNode('length', (text: string) => text.length, {
      beforeStream: async function* (chunks) {
        expectTypeOf(chunks).toEqualTypeOf<AsyncIterable<string>>();
        for await (const chunk of chunks) yield chunk.trim();
      },
    });
  });

  it('rejects a handler that returns another type', () => {
    new Graph<string, number>().addNode('length', (text: string) => text.length, {
      // @ts-expect-error before must return the node's input type (string)
      before: (input: string) => input.length,
    });
    new Graph<string, number>().addNode('length', (text: string) => text.length, {
      // @ts-expect-error after must return the node's output type (number)
      after: (output: number) => String(output),
    });
    new Graph<string, number>().addNode('length', (text: string) => text.length, {
      // @ts-expect-error beforeStream must yield the node's input type (string)
      beforeStream: async function* (chunks: AsyncIterable<string>) {
        for await (const chunk of chunks) yield chunk.length;
      },
    });
  });
});
