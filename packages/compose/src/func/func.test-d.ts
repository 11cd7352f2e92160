import { describe, expectTypeOf, it } from 'vitest';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import type { Command } from '../vocabulary/command.js';
import { type EntrypointContext, entrypoint, task } from './index.js';

describe('task types', () => {
  it('is typed by the function it wraps: arguments in, a promise of the awaited result out', () => {
    const parse = task('parse', async (text: string, radix: number) => Number.parseInt(text, radix));
    expectTypeOf(parse).toBeCallableWith('10', 2);
    expectTypeOf(parse).returns.toEqualTypeOf<Promise<number>>();
    const sync = task({ name: 'sync' }, (flag: boolean) => (flag ? 'yes' : 'no'));
    expectTypeOf(sync).returns.toEqualTypeOf<Promise<'yes' | 'no'>>();
    // @ts-expect-error a string where the task takes a number
    void parse('10', '2');
    // @ts-expect-error a missing argument
    void parse('10');
  });
});

describe('entrypoint types', () => {
  it('types invoke by the body: its input (or a continuation) in, its return value out', () => {
    const app = entrypoint({ name: 'app' }, async (input: { text: string }) => input.text.length);
    expectTypeOf(app.invoke).parameter(0).toEqualTypeOf<{ text: string } | Command | null>();
    expectTypeOf(app.invoke).returns.toEqualTypeOf<Promise<number>>();
    // @ts-expect-error the input is an object with text
    void app.invoke('plain');
  });

  it('entrypoint.final: the caller gets value, the next turn reads save as ctx.previous', () => {
    const counter = entrypoint(
      { name: 'counter', checkpointer: new MemoryCheckpointer() },
      async (n: number, ctx: EntrypointContext<number>) => {
        expectTypeOf(ctx.previous).toEqualTypeOf<number | undefined>();
        return entrypoint.final({ value: `total ${(ctx.previous ?? 0) + n}`, save: (ctx.previous ?? 0) + n });
      },
    );
    expectTypeOf(counter.invoke).returns.toEqualTypeOf<Promise<string>>();
    entrypoint(
      { name: 'bad' },
      // @ts-expect-error the saved value is what the next turn's ctx.previous says it is (a number)
      async (n: number, _ctx: EntrypointContext<number>) => entrypoint.final({ value: n, save: 'text' }),
    );
  });
});
