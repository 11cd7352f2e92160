import { describe, expect, it } from 'vitest';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { runnable } from '../runnable/lambda.js';
import { END, START } from '../vocabulary/constants.js';
import { Graph } from './graph.js';

interface Notes {
  seen: string[];
  last?: string;
}

const notes = (): Notes => ({ seen: [] });

describe('state handlers (before / after) on dataflow nodes', () => {
  it('rewrites input and output with the run-local state, which nodes read as ctx.localState', async () => {
    const app = new Graph<string, string>({ localState: notes })
      .addNode('first', (text: string) => `${text}!`, {
        after: (output, state: Notes) => {
          state.last = output;
          return output;
        },
      })
      .addNode('second', (text: string, ctx) => `${text} (${(ctx.localState as Notes).seen.join(',')})`, {
        before: (input, state: Notes) => {
          state.seen.push(`before:${state.last}`);
          return input.toUpperCase();
        },
        after: async (output) => `[${output}]`,
      })
      .addEdge(START, 'first')
      .addEdge('first', 'second')
      .addEdge('second', END)
      .compile();
    expect(await app.invoke('hi')).toBe('[HI! (before:hi!)]');
    // A new state for each run.
    expect(await app.invoke('yo')).toBe('[YO! (before:yo!)]');
  });

  it('applies after to the joined output of a streaming node, and afterStream to its chunks', async () => {
    async function* words(text: string) {
      for (const word of text.split(' ')) yield `${word} `;
    }
    const chunks: unknown[] = [];
    const joined = new Graph<string, string>()
      .addNode('stream', words, { after: (output: string) => output.trim().toUpperCase() })
      .addEdge(START, 'stream')
      .addEdge('stream', END)
      .compile();
    expect(await joined.invoke('a b c')).toBe('A B C');
    const perChunk = new Graph<string, string>()
      .addNode('stream', words, {
        afterStream: async function* (source: AsyncIterable<string>) {
          for await (const chunk of source) yield chunk.toUpperCase();
        },
        after: () => 'not used for a streamed output',
      })
      .addEdge(START, 'stream')
      .addEdge('stream', END)
      .compile();
    for await (const part of perChunk.stream('a b', { mode: 'messages' })) chunks.push(part.chunk);
    expect(chunks).toEqual(['A ', 'B ']);
    expect(await perChunk.invoke('a b')).toBe('A B ');
  });

  it('beforeStream rewrites a streamed input chunk by chunk; before alone gets it joined', async () => {
    async function* words(text: string) {
      for (const word of text.split(' ')) yield `${word} `;
    }
    const echo = (seen: string[]) =>
      runnable({
        transform: async function* (chunks: AsyncIterable<string>) {
          for await (const chunk of chunks) {
            seen.push(chunk);
            yield chunk;
          }
        },
      });
    const seen: string[] = [];
    const perChunk = new Graph<string, string>({ localState: notes })
      .addNode('words', words)
      .addNode('echo', echo(seen), {
        beforeStream: async function* (chunks: AsyncIterable<string>, state: Notes) {
          for await (const chunk of chunks) {
            state.seen.push(chunk);
            yield chunk.toUpperCase();
          }
        },
      })
      .addEdge(START, 'words')
      .addEdge('words', 'echo')
      .addEdge('echo', END)
      .compile();
    expect(await perChunk.invoke('a b')).toBe('A B ');
    expect(seen).toEqual(['A ', 'B ']);
    const joined: string[] = [];
    const whole = new Graph<string, string>()
      .addNode('words', words)
      .addNode('echo', echo(joined), { before: (input: string) => input.trim() })
      .addEdge(START, 'words')
      .addEdge('words', 'echo')
      .addEdge('echo', END)
      .compile();
    expect(await whole.invoke('a b')).toBe('a b');
    expect(joined).toEqual(['a b']);
  });

  it('beforeStream runs on a whole input as one chunk when no before is given', async () => {
    const app = new Graph<string, string>()
      .addNode('upper', (text: string) => text, {
        beforeStream: async function* (chunks: AsyncIterable<string>) {
          for await (const chunk of chunks) {
            yield chunk.toUpperCase();
            yield '!';
          }
        },
      })
      .addEdge(START, 'upper')
      .addEdge('upper', END)
      .compile();
    expect(await app.invoke('hi')).toBe('HI!');
  });

  it('reports a failing handler as the node failing', async () => {
    const app = new Graph<number, number>()
      .addNode('n', (x: number) => x, {
        before: () => {
          throw new Error('no input today');
        },
      })
      .addEdge(START, 'n')
      .addEdge('n', END)
      .compile();
    await expect(app.invoke(1)).rejects.toMatchObject({ name: 'NodeError', message: /no input today/ });
  });

  it('gives a subgraph its own local state, and refuses a checkpointer at compile()', async () => {
    const inner = new Graph<number, number>({ localState: () => ({ tag: 'inner' }) })
      .addNode('read', (n: number, ctx) => (ctx.localState as { tag: string }).tag.length + n)
      .addEdge(START, 'read')
      .addEdge('read', END)
      .compile();
    const outer = new Graph<number, number>({ localState: () => ({ tag: 'outer!' }) })
      .addNode('sub', inner)
      .addNode('read', (n: number, ctx) => (ctx.localState as { tag: string }).tag.length + n)
      .addEdge(START, 'sub')
      .addEdge('sub', 'read')
      .addEdge('read', END);
    expect(await outer.compile().invoke(0)).toBe(5 + 6);
    expect(() => outer.compile({ checkpointer: new MemoryCheckpointer() })).toThrow(
      /local state lives for one run and is not checkpointed/,
    );
  });
});
