import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, type Tool, tool } from './tool.js';
import type { ToolContext } from './tool-context.js';

const parameters = z.object({
  city: z.string(),
  days: z.number().optional(),
  unit: z.enum(['c', 'f']).default('c'),
});

describe('tool()', () => {
  it('infers execute arguments from the zod schema (output side: defaults applied)', () => {
    tool({
      name: 'weather',
      description: 'd',
      parameters,
      execute: (args, context) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined; unit: 'c' | 'f' }>();
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        // @ts-expect-error not a parameter of this tool
        args.country;
        return args.city;
      },
    });
  });

  it('infers the result type', () => {
    const add = tool({
      name: 'add',
      description: 'd',
      parameters: z.object({ a: z.number() }),
      execute: ({ a }) => a + 1,
    });
    expectTypeOf(add).toEqualTypeOf<Tool<{ a: number }, number>>();
    expectTypeOf(add.execute).returns.resolves.toEqualTypeOf<number>();
    const asyncTool = tool({
      name: 'later',
      description: 'd',
      parameters: z.object({}),
      execute: async () => 'x',
    });
    expectTypeOf(asyncTool.execute).returns.resolves.toEqualTypeOf<string>();
  });

  it('types needsApproval and requiresApproval with the arguments', () => {
    const guarded = tool({
      name: 'pay',
      description: 'd',
      parameters: z.object({ amount: z.number() }),
      execute: () => 'paid',
      needsApproval: (args) => {
        expectTypeOf(args.amount).toEqualTypeOf<number>();
        return args.amount > 100;
      },
    });
    guarded.requiresApproval({ amount: 5 });
    // @ts-expect-error the arguments must match the schema
    guarded.requiresApproval({ amount: '5' });
  });

  it('accepts only object schemas as parameters', () => {
    // @ts-expect-error a string schema cannot describe tool parameters
    tool({ name: 'bad', description: 'd', parameters: z.string(), execute: () => 1 });
  });

  it('lets tools of different types live in one AnyTool list', () => {
    const a = tool({
      name: 'a',
      description: 'd',
      parameters: z.object({ x: z.number() }),
      execute: () => 1,
    });
    const b = tool({
      name: 'b',
      description: 'd',
      parameters: z.object({ y: z.string() }),
      execute: () => 'b',
    });
    const tools: AnyTool[] = [a, b];
    expectTypeOf(tools).toEqualTypeOf<AnyTool[]>();
    // @ts-expect-error a plain object is not a tool
    const notTools: AnyTool[] = [{ name: 'x' }];
    void notTools;
  });
});
