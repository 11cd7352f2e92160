import { END, Graph, START } from '@weft/compose';
import { z } from 'zod';
import { sleep } from './sleep.ts';

const TextInput = z.object({
  text: z
    .string()
    .min(1)
    .describe('Some text to analyse')
    .meta({ default: 'Weft draws every run as a graph' }),
});

/** What the pipeline reports. */
export interface TextReport {
  readonly words: number;
  readonly characters: number;
  readonly longest: string;
  readonly summary: string;
}

/**
 * The demo's DAG (mode `dag`: each node runs once all its predecessors are done; no checkpoints):
 * `normalize` feeds three analyses that run in parallel, joined by `report`.
 *
 * @example
 * ```ts
 * await buildDagGraph().invoke({ text: 'Hello graph world' });
 * ```
 */
export function buildDagGraph() {
  return new Graph<{ text: string }, TextReport>({ input: TextInput })
    .addNode('normalize', async (input: { text: string }, ctx) => {
      await sleep(200, ctx.signal);
      return input.text.trim().replace(/\s+/g, ' ');
    })
    .addNode(
      'words',
      async (text: string, ctx) => {
        await sleep(300, ctx.signal);
        return text.split(' ').length;
      },
      { outputKey: 'words' },
    )
    .addNode(
      'characters',
      async (text: string, ctx) => {
        await sleep(450, ctx.signal);
        return text.length;
      },
      { outputKey: 'characters' },
    )
    .addNode(
      'longest',
      async (text: string, ctx) => {
        await sleep(250, ctx.signal);
        return text.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
      },
      { outputKey: 'longest' },
    )
    .addNode('report', (parts: { words: number; characters: number; longest: string }) => ({
      ...parts,
      summary: `${parts.words} words, ${parts.characters} characters; longest word "${parts.longest}"`,
    }))
    .addEdge(START, 'normalize')
    .addEdge('normalize', 'words')
    .addEdge('normalize', 'characters')
    .addEdge('normalize', 'longest')
    .addEdge(['words', 'characters', 'longest'], 'report')
    .addEdge('report', END)
    .compile({ name: 'dag-pipeline', mode: 'dag' });
}
