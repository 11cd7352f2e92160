import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { END, START } from '../vocabulary/constants.js';
import { StateGraph } from './state-graph.js';

const State = z.object({
  question: z.string(),
  answer: z.string().default(''),
  notes: z.string().default(''),
});
const Input = z.object({ question: z.string(), tone: z.enum(['plain', 'loud']).default('plain') });
const Output = z.object({ answer: z.string() });
const Private = z.object({ question: z.string(), tone: z.string(), draft: z.string().optional() });

function qa(checkpointer?: MemoryCheckpointer) {
  return new StateGraph(State, { input: Input, output: Output })
    .addNode('draft', (s: z.infer<typeof Private>) => ({ draft: `re: ${s.question}`, notes: s.tone }), {
      input: Private,
    })
    .addNode(
      'polish',
      (s: { draft: string; tone: string }) => ({
        answer: s.tone === 'loud' ? s.draft.toUpperCase() : s.draft,
      }),
      { input: z.object({ draft: z.string(), tone: z.string() }) },
    )
    .addEdge(START, 'draft')
    .addEdge('draft', 'polish')
    .addEdge('polish', END)
    .compile(checkpointer ? { checkpointer } : {});
}

describe('input, output and private schemas', () => {
  it('accepts the input schema’s keys (defaults applied) and returns only the output schema’s keys', async () => {
    expect(await qa().invoke({ question: 'why' })).toEqual({ answer: 're: why' });
    expect(await qa().invoke({ question: 'why', tone: 'loud' })).toEqual({ answer: 'RE: WHY' });
    await expect(qa().invoke({ question: 'why', tone: 'soft' as 'plain' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('drops input keys the input schema does not declare', async () => {
    const seen: unknown[] = [];
    const app = new StateGraph(State, { input: Input })
      .addNode('look', (s) => {
        seen.push(s.notes);
        return {};
      })
      .addEdge(START, 'look')
      .addEdge('look', END)
      .compile();
    await app.invoke({ question: 'q', notes: 'smuggled' } as never);
    expect(seen).toEqual(['']);
  });

  it('keeps private keys in the state (getState shows them) and out of the result and values stream', async () => {
    const checkpointer = new MemoryCheckpointer();
    const app = qa(checkpointer);
    const result = await app.run({ question: 'q' }, { threadId: 't' });
    expect(result.output).toEqual({ answer: 're: q' });
    const values = (await app.getState('t'))?.values as Record<string, unknown>;
    expect(values).toMatchObject({ question: 'q', tone: 'plain', draft: 're: q', notes: 'plain' });
    const parts: unknown[] = [];
    for await (const part of qa().stream({ question: 'q' })) parts.push(part);
    expect(parts.at(-1)).toEqual({ answer: 're: q' });
    expect(parts.every((p) => Object.keys(p as object).every((k) => k === 'answer'))).toBe(true);
  });

  it('gives a node with an input schema only the keys it declares', async () => {
    const seen: unknown[] = [];
    const app = new StateGraph(State)
      .addNode(
        'narrow',
        (s: { question: string }) => {
          seen.push(s);
          return {};
        },
        { input: z.object({ question: z.string() }) },
      )
      .addEdge(START, 'narrow')
      .addEdge('narrow', END)
      .compile();
    await app.invoke({ question: 'q', notes: 'n' });
    expect(seen).toEqual([{ question: 'q' }]);
  });
});
