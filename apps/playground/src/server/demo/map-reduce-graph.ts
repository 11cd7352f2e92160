import { appendReducer, END, Send, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
import { sleep } from './sleep.ts';

const ResearchState = z.object({
  topic: z.string().default('graph engines'),
  subtopics: z.array(z.string()).default([]),
  notes: z.array(z.string()).default([]),
  summary: z.string().default(''),
});

const ResearchInput = z
  .object({
    topic: z.string().min(1).optional().describe('What to research').meta({ default: 'graph engines' }),
    subtopics: z.array(z.string()).optional().describe('Angles to research in parallel (default: three)'),
  })
  .strict();

/** The summarize subgraph: drafts a summary from the notes, then polishes it. */
function buildSummarizeGraph() {
  return new StateGraph(z.object({ notes: z.array(z.string()).default([]), summary: z.string().default('') }))
    .addNode('draft', (state) => ({ summary: state.notes.map((note) => note.split(':')[0]).join(', ') }))
    .addNode('polish', (state) => ({ summary: `Covered ${state.notes.length} angles: ${state.summary}.` }))
    .addEdge(START, 'draft')
    .addEdge('draft', 'polish')
    .addEdge('polish', END)
    .compile({ name: 'summarize' });
}

/**
 * The demo's map-reduce: `plan` picks subtopics, a `Send` per subtopic fans out to `research` (the
 * tasks run in parallel), and the `summarize` subgraph reduces the notes. `researchGate`, when given,
 * is awaited by every research task before it finishes (tests hold the tasks running with it).
 *
 * @example
 * ```ts
 * await buildMapReduceGraph().invoke({ topic: 'rivers' });
 * ```
 */
export function buildMapReduceGraph(options: { readonly researchGate?: () => Promise<void> } = {}) {
  return new StateGraph(ResearchState, { reducers: { notes: appendReducer }, input: ResearchInput })
    .addNode('plan', (state) => ({
      subtopics: state.subtopics.length > 0 ? state.subtopics : ['history', 'design', 'performance'],
    }))
    .addNode('research', async (task: { topic: string; subtopic: string }, ctx) => {
      await sleep(200 + 40 * task.subtopic.length, ctx.signal);
      await options.researchGate?.();
      return { notes: `${task.subtopic}: what matters about ${task.topic}` };
    })
    .addNode('summarize', buildSummarizeGraph())
    .addEdge(START, 'plan')
    .addConditionalEdges(
      'plan',
      (state) => state.subtopics.map((subtopic) => new Send('research', { topic: state.topic, subtopic })),
      ['research'],
    )
    .addEdge('research', 'summarize')
    .addEdge('summarize', END)
    .compile({ name: 'map-reduce' });
}
