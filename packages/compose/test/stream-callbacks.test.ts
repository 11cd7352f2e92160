import { describe, expect, it } from 'vitest';
import { END, Graph, runnable, START } from '../src/index.js';

async function all(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of source) items.push(item);
  return items;
}

const upper = runnable({
  transform: async function* (chunks: AsyncIterable<string>) {
    for await (const chunk of chunks) yield chunk.toUpperCase();
  },
});

describe('stream callbacks (ADR 022)', () => {
  it('onEndWithStreamOutput and onStartWithStreamInput see the chunks of a pipeline', async () => {
    const outputs: Array<Promise<[string, unknown[]]>> = [];
    const inputs: Array<Promise<[string, string | undefined, unknown[]]>> = [];
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        yield 'a';
        yield 'b';
      })
      .addNode('parser', upper)
      .addEdge(START, 'model')
      .addEdge('model', 'parser')
      .addEdge('parser', END)
      .compile();
    const out = await app.invoke('go', {
      callbacks: {
        onEndWithStreamOutput: (event, output) => {
          outputs.push(all(output).then((chunks) => [event.node, chunks]));
        },
        onStartWithStreamInput: (event, input) => {
          inputs.push(all(input).then((chunks) => [event.node, event.streamFrom, chunks]));
        },
      },
    });
    expect(out).toBe('AB');
    expect(await Promise.all(outputs)).toEqual([
      ['model', ['a', 'b']],
      ['parser', ['A', 'B']],
    ]);
    const [[node, from, chunks]] = (await Promise.all(inputs)) as [[string, string, unknown[]]];
    expect([node, from?.endsWith(':model:0'), chunks]).toEqual(['parser', true, ['a', 'b']]);
  });

  it('an output stream fails when its node fails; a throwing callback never fails the run', async () => {
    const seen: unknown[] = [];
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        yield 'a';
        throw new Error('lost');
      })
      .addEdge(START, 'model')
      .addEdge('model', END)
      .compile();
    const failed = app.invoke('go', {
      callbacks: {
        onEndWithStreamOutput: (_event, output) => {
          seen.push(all(output).catch((error: Error) => `failed: ${error.message}`));
          throw new Error('callback bug');
        },
      },
    });
    await expect(failed).rejects.toMatchObject({ node: 'model' });
    expect(await Promise.all(seen)).toEqual([expect.stringMatching(/^failed: .*lost/)]);
  });
});
