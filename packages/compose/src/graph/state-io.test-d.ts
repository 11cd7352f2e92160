import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { END, START } from '../vocabulary/constants.js';
import type { InferInput, InferOutput } from './infer.js';
import { StateGraph } from './state-graph.js';

const State = z.object({ question: z.string(), answer: z.string() });
const Input = z.object({ question: z.string(), tone: z.enum(['plain', 'loud']).default('plain') });
const Output = z.object({ answer: z.string() });

describe('input and output schemas type invoke and its result', () => {
  const app = new StateGraph(State, { input: Input, output: Output })
    .addNode('a', () => ({ answer: 'x' }))
    .addEdge(START, 'a')
    .addEdge('a', END)
    .compile();

  it('takes the input schema’s input type and returns the output schema’s type', () => {
    expectTypeOf<InferInput<typeof app>>().toEqualTypeOf<{
      question: string;
      tone?: 'plain' | 'loud' | undefined;
    }>();
    expectTypeOf<InferOutput<typeof app>>().toEqualTypeOf<{ answer: string }>();
    expectTypeOf(app.invoke({ question: 'q' })).resolves.toEqualTypeOf<{ answer: string }>();
  });

  it('rejects a key only the state has, and a wrong value', () => {
    // @ts-expect-error answer is not an input key
    void app.invoke({ question: 'q', answer: 'a' });
    // @ts-expect-error tone is 'plain' or 'loud'
    void app.invoke({ question: 'q', tone: 'soft' });
  });

  it('without schemas, the input is the update and the result the state', () => {
    const plain = new StateGraph(State)
      .addNode('a', () => ({}))
      .addEdge(START, 'a')
      .compile();
    expectTypeOf<InferOutput<typeof plain>>().toEqualTypeOf<{ question: string; answer: string }>();
    expectTypeOf<InferInput<typeof plain>>().toEqualTypeOf<{
      question?: string | undefined;
      answer?: string | undefined;
    }>();
  });
});

describe('private keys', () => {
  const Private = z.object({ question: z.string(), draft: z.string().optional() });

  it('lets a node with an input schema read and write its private keys', () => {
    new StateGraph(State).addNode('w', (s: z.infer<typeof Private>) => ({ draft: s.question }), {
      input: Private,
    });
  });

  it('rejects a private write without the declaration, and a wrong private value', () => {
    // @ts-expect-error draft is not a state key and the node declares no input schema
    new StateGraph(State).addNode('w', () => ({ draft: 'x' }));
    new StateGraph(State).addNode(
      'w',
      // @ts-expect-error draft is a string
      (s: z.infer<typeof Private>) => ({ draft: s.question.length }),
      { input: Private },
    );
  });
});
