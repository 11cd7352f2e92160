import { describe, expect, it } from 'vitest';
import { runnable } from '../../runnable/lambda.js';
import { END, START } from '../../vocabulary/constants.js';
import { mapFields, toField } from './field-mapping.js';
import { Workflow } from './workflow.js';

/** A promise with its resolve function, for gating the model on what the test has seen. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const upper = runnable({
  transform: async function* (chunks: AsyncIterable<string>) {
    for await (const chunk of chunks) yield chunk.toUpperCase();
  },
});

describe('streams between workflow nodes (ADR 022)', () => {
  it('a node fed one whole output reads it as it streams', async () => {
    const last = gate();
    const produced: string[] = [];
    const app = new Workflow<string, { text: string }>()
      .addNode('model', async function* (prompt: string) {
        for (const token of [prompt, 'b']) {
          produced.push(token);
          yield token;
        }
        await last.promise;
        produced.push('c');
        yield 'c';
      })
      .addNode('parser', upper)
      .addInput('model', START)
      .addInput('parser', 'model')
      .addInput(END, 'parser', toField('text'))
      .compile();
    let at: string[] | undefined;
    for await (const part of app.stream('a', { mode: 'messages' })) {
      if (part.node === 'parser' && at === undefined) {
        at = [...produced];
        // Without streaming, the parser starts after the model's last chunk: the run would never end.
        last.open();
      }
    }
    expect(at).toEqual(['a', 'b']);
    expect(await app.invoke('x')).toEqual({ text: 'XBC' });
  });

  it('a node whose input is built from fields gets it whole, after the stream ended', async () => {
    const seen: unknown[] = [];
    const app = new Workflow<string, string>()
      .addNode('model', async function* () {
        yield { text: 'he' };
        yield { text: 'llo' };
      })
      .addNode('read', (input: { words: string }) => {
        seen.push(input);
        return input.words;
      })
      .addInput('model', START)
      .addInput('read', 'model', mapFields('text', 'words'))
      .addInput(END, 'read')
      .compile();
    expect(await app.invoke('go')).toBe('hello');
    expect(seen).toEqual([{ words: 'hello' }]);
  });
});
