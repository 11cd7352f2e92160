import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphValidationError } from '../../errors/graph-validation-error.js';
import { END, START } from '../../vocabulary/constants.js';
import { fromField, mapFieldPaths, mapFields, toField } from './field-mapping.js';
import { Workflow } from './workflow.js';

function problems(build: () => unknown): string[] {
  try {
    build();
  } catch (error) {
    if (error instanceof GraphValidationError)
      return error.issues.map((issue) => `${issue.at}: ${issue.message}`);
    throw error;
  }
  return [];
}

// Untyped workflows (any input and output): what only compile() can check.
const loose = () => new Workflow<unknown, unknown>();
const passthroughNode = (input: unknown) => input;

describe('Workflow compile() checks', () => {
  it('rejects two mappings into one path, or into a path inside one mapped whole (Eino conflicts)', () => {
    expect(
      problems(() => loose().addInput(END, START, toField('key1'), toField('key1.key2')).compile()),
    ).toEqual([
      expect.stringMatching(
        /^__end__: field "key1.key2" of "__end__" \(from "__start__"\) conflicts with field "key1"/,
      ),
    ]);
    expect(
      problems(() =>
        loose()
          .addNode('a', passthroughNode)
          .addNode('b', passthroughNode)
          .addInput('a', START)
          .addInput('b', START)
          .addInput(END, 'a', toField('f'))
          .addInput(END, 'b', toField('f'))
          .compile(),
      ),
    ).toEqual([
      expect.stringMatching(/field "f" of "__end__" \(from "b"\) conflicts with field "f" \(from "a"\)/),
    ]);
    expect(
      problems(() =>
        loose()
          .addNode('zero', passthroughNode)
          .addInput('zero', START)
          .setStaticValue('zero', 'prefilled', 1)
          .addInput(END, 'zero')
          .compile(),
      ),
    ).toEqual([
      expect.stringMatching(
        /field "prefilled" of "zero" \(from a static value\) conflicts with the whole input/,
      ),
    ]);
    // Distinct leaves under one object are fine.
    expect(problems(() => loose().addInput(END, START, toField('k.a'), toField('k.b')).compile())).toEqual(
      [],
    );
  });

  it('rejects a data-only input with no triggering path behind it (Eino illegal indirect edge)', () => {
    const found = problems(() =>
      loose()
        .addNode('a', passthroughNode)
        .addNode('b', passthroughNode)
        .addInput('a', START)
        .addInput('b', START, toField('start'))
        .addInputWithOptions('b', 'a', [toField('a')], { noDirectDependency: true })
        .addInput(END, 'b')
        .compile(),
    );
    expect(found).toContainEqual(
      expect.stringMatching(/^a -> b: "b" takes data from "a" without depending on it directly, but no path/),
    );
  });

  it('names unknown nodes, nodes nothing triggers, and a missing END input', () => {
    const found = problems(() =>
      loose()
        .addNode('a', passthroughNode)
        .addInput('a', 'ghost' as typeof START)
        .addInput('nowhere' as typeof END, START)
        .compile(),
    );
    expect(found).toContainEqual(
      expect.stringMatching(/"a" takes an input from "ghost", which is not a node/),
    );
    expect(found).toContainEqual(
      expect.stringMatching(/an input is added to "nowhere", which is not a node/),
    );
    expect(found).toContainEqual(expect.stringMatching(/nothing triggers the workflow output \(END\)/));
  });

  it('checks mappings against zod schemas where the types are not known, naming node and field', () => {
    const input = z.object({ user: z.object({ name: z.string(), age: z.number() }) });
    const found = problems(() =>
      new Workflow<unknown, unknown>({ input, output: z.object({ name: z.string() }) })
        .addNode('count', passthroughNode, {
          input: z.object({ n: z.number() }),
          output: z.object({ total: z.number() }),
        })
        .addInput('count', START, mapFields('user.nmae', 'n'))
        .addInput('count', START, mapFields('user.name', 'n'))
        .addInputWithOptions(END, 'count', [mapFields('total', 'name')])
        .addInput(
          END,
          START,
          mapFieldPaths(['user', 'age', 'years'], ['age']),
          mapFields('user.name', 'nickname'),
        )
        .compile(),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /__start__ -> count: field "user.nmae" of "__start__" does not exist: its output schema has no "nmae" at user/,
        ),
        expect.stringMatching(
          /__start__ -> count: field "user.name" of "__start__" does not fit field "n" of "count": a string does not fit a number/,
        ),
        expect.stringMatching(
          /count -> __end__: field "total" of "count" does not fit field "name" of "__end__": a number does not fit a string/,
        ),
        expect.stringMatching(
          /field "user.age.years" of "__start__" does not exist: its output schema has no "years" at user.age, a number/,
        ),
        expect.stringMatching(
          /field "nickname" of "__end__" does not exist: its input schema has no "nickname"/,
        ),
      ]),
    );
  });

  it('accepts what the schemas allow: optional and defaulted fields, records, unknown values', async () => {
    const app = new Workflow<unknown, unknown>({
      input: z.object({ meta: z.record(z.string(), z.string()), extra: z.unknown() }),
      output: z.object({ tag: z.string().optional(), deep: z.unknown() }),
    })
      .addInput(END, START, mapFields('meta.tag', 'tag'), mapFields('extra.anything', 'deep'))
      .compile();
    expect(await app.invoke({ meta: { tag: 'x' }, extra: { anything: 1 } })).toEqual({ tag: 'x', deep: 1 });
  });

  it('rejects a value that is not a field mapping, and an invalid path segment', () => {
    expect(
      problems(() =>
        loose()
          .addInput(END, START, 'a' as never)
          .compile(),
      ),
    ).toContainEqual(expect.stringMatching(/"a" is not a field mapping|a is not a field mapping/));
    expect(problems(() => loose().addInput(END, START, fromField('__proto__.x')).compile())).toContainEqual(
      expect.stringMatching(/invalid segment "__proto__"/),
    );
  });
});
