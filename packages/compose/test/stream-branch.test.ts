import { describe, expect, it } from 'vitest';
import { END, Graph, GraphValidationError, START } from '../src/index.js';

/** A promise with its resolve function, for gating a node on what the test has seen. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** `model` streams `chunks`; the condition routes to `tools` when the first chunk is a call. */
function agent(model: (prompt: string) => AsyncIterable<string> | string, read: string[][] = []) {
  return new Graph<string, string>()
    .addNode('model', model)
    .addNode('tools', (text: string) => `tools got ${text}`)
    .addNode('answer', (text: string) => `answer got ${text}`)
    .addEdge(START, 'model')
    .addStreamBranch(
      'model',
      async (chunks) => {
        const seen: string[] = [];
        read.push(seen);
        for await (const chunk of chunks) {
          seen.push(chunk);
          return chunk === 'CALL' ? 'tools' : 'answer';
        }
        return END;
      },
      ['tools', 'answer', END],
    )
    .addEdge('tools', END)
    .addEdge('answer', END);
}

describe('addStreamBranch (ADR 022)', () => {
  it('decides on the first chunk, before the node produced its last one', async () => {
    const decided = gate();
    const produced: string[] = [];
    let producedAtDecision: string[] | undefined;
    const read: string[][] = [];
    const app = agent(async function* () {
      for (const chunk of ['CALL', ' search']) {
        produced.push(chunk);
        yield chunk;
      }
      await decided.promise;
      produced.push(' now');
      yield ' now';
    }, read).compile();
    const run = app.invoke('go', {
      callbacks: {
        onEvent: () => {
          // The decision is reported through the read list; open the gate once the condition returned.
          if (read[0]?.length === 1 && producedAtDecision === undefined) {
            producedAtDecision = [...produced];
            decided.open();
          }
        },
      },
    });
    expect(await run).toBe('tools got CALL search now');
    expect(producedAtDecision?.includes(' now')).toBe(false);
    expect(read).toEqual([['CALL']]);
  });

  it('the chosen node gets the whole output, not what the condition left unread', async () => {
    const app = agent(async function* () {
      yield 'Hel';
      yield 'lo';
    }).compile();
    expect(await app.invoke('go')).toBe('answer got Hello');
  });

  it('a node that returns a plain value gives the condition that value as one chunk', async () => {
    const read: string[][] = [];
    const app = agent(() => 'CALL', read).compile();
    expect(await app.invoke('go')).toBe('tools got CALL');
    expect(read).toEqual([['CALL']]);
  });

  it('a condition that fails fails the run, naming the node', async () => {
    const app = new Graph<string, string>()
      .addNode('model', async function* () {
        yield 'x';
      })
      .addEdge(START, 'model')
      .addStreamBranch('model', async () => {
        throw new Error('cannot tell');
      })
      .compile();
    await expect(app.invoke('go')).rejects.toThrow(/router of "model" threw: cannot tell/);
  });

  it('is reported by compile() in DAG mode', () => {
    const build = () => agent(() => 'x').compile({ mode: 'dag' });
    expect(build).toThrow(GraphValidationError);
    expect(build).toThrow(/addStreamBranch\("model", …\) reads a stream/);
  });

  it('types: the condition reads the node’s output type; targets are checked', () => {
    new Graph<number, number>()
      .addNode('n', (x: number) => x)
      .addEdge(START, 'n')
      // @ts-expect-error a chunk of "n" is a number
      .addStreamBranch('n', async (chunks: AsyncIterable<string>) => (chunks ? END : END))
      // @ts-expect-error "nowhere" is not a node
      .addStreamBranch('n', async () => 'nowhere' as const);
  });
});
