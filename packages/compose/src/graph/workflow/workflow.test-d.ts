import { describe, expectTypeOf, it } from 'vitest';
import { END, START } from '../../vocabulary/constants.js';
import { fromField, mapFieldPaths, mapFields, toField } from './field-mapping.js';
import type { PathValue } from './mapping-types.js';
import { Workflow } from './workflow.js';

interface Input {
  user: { name: string; age?: number };
  tags: Record<string, string>;
  city: string;
}

const base = () =>
  new Workflow<Input, { text: string; age: number | undefined }>()
    .addNode('greet', (input: { name: string; age: number | undefined }) => `Hello, ${input.name}`)
    .addNode('length', (text: string) => text.length);

describe('field mapping types', () => {
  it('resolves nested paths, optional fields and records', () => {
    expectTypeOf<PathValue<Input, 'user.name'>>().toEqualTypeOf<string>();
    expectTypeOf<PathValue<Input, 'user.age'>>().toEqualTypeOf<number | undefined>();
    expectTypeOf<PathValue<Input, 'tags.any'>>().toEqualTypeOf<string>();
    expectTypeOf<PathValue<Input, ''>>().toEqualTypeOf<Input>();
  });

  it('accepts mappings whose fields exist and fit', () => {
    base()
      .addInput('greet', START, mapFields('user.name', 'name'), mapFields('user.age', 'age'))
      .addInput('length', START, fromField('city'))
      .addInput(END, 'greet', toField('text'))
      .addInput(END, START, mapFields('user.age', 'age'));
  });

  it('rejects a source field that does not exist', () => {
    // @ts-expect-error "user.nmae" is not a field of the input
    base().addInput('greet', START, mapFields('user.nmae', 'name'));
  });

  it('rejects a target field that does not exist', () => {
    // @ts-expect-error "nam" is not a field of greet's input
    base().addInput('greet', START, mapFields('user.name', 'nam'));
  });

  it('rejects a field whose type does not fit', () => {
    // @ts-expect-error a number (length's output) does not fit the text field (string)
    base().addInput('length', START, fromField('city')).addInput(END, 'length', toField('text'));
    // @ts-expect-error the whole input object does not fit length's string input
    base().addInput('length', START);
  });

  it('leaves segment-list paths to compile() and run time', () => {
    base().addInput('greet', START, mapFieldPaths(['user', 'nmae'], ['name']));
  });

  it('types a passthrough from what is mapped into it, and its branch router input', () => {
    base()
      .addPassthrough('gather')
      .addInput('gather', START, mapFields('user.name', 'who'), toField('all'))
      .addBranch(
        'gather',
        (gathered) => {
          expectTypeOf(gathered).toEqualTypeOf<{ who: string } & { all: Input }>();
          return gathered.who === '' ? END : 'greet';
        },
        ['greet', END],
      );
  });

  it('types run options with the workflow node names', () => {
    const app = base()
      .addInput('greet', START, mapFields('user.name', 'name'), mapFields('user.age', 'age'))
      .addInput(END, 'greet', toField('text'))
      .addInput(END, START, mapFields('user.age', 'age'))
      .addInput('length', START, fromField('city'))
      .compile();
    expectTypeOf(app.invoke).returns.resolves.toEqualTypeOf<{ text: string; age: number | undefined }>();
    void app.invoke({ user: { name: 'a' }, tags: {}, city: 'x' }, { nodeOptions: { greet: {} } });
    // @ts-expect-error "great" is not a node of the workflow
    void app.invoke({ user: { name: 'a' }, tags: {}, city: 'x' }, { nodeOptions: { great: {} } });
  });
});
