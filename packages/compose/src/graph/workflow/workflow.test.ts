import { describe, expect, it } from 'vitest';
import { FieldMappingError } from '../../errors/field-mapping-error.js';
import { END, START } from '../../vocabulary/constants.js';
import { fromField, mapFieldPaths, mapFields, toField } from './field-mapping.js';
import { Workflow } from './workflow.js';

describe('Workflow field mappings (Eino TestWorkflow semantics)', () => {
  it('builds a node input from fields of several predecessors, and END from a node output', async () => {
    const app = new Workflow<{ field1: string; field2: number; field3: unknown[] }, { field1: string }>()
      .addNode('b', (text: string) => ({ field1: text, field2: 33 }))
      .addNode('c', (n: number) => ({ field1: String(n) }))
      .addNode('d', (list: unknown[]) => list)
      .addInput('b', START, fromField('field1'))
      .addInput('c', START, fromField('field2'))
      .addInput('d', START, fromField('field3'))
      .addNode('e', (input: { field1: string; field2: string; field3: unknown[] }) => ({
        field1: `E:${input.field1}`,
        field2: `E:${input.field2}`,
        field3: input.field3,
      }))
      .addInput('e', 'b', mapFields('field1', 'field1'))
      .addInput('e', 'c', mapFields('field1', 'field2'))
      .addInput('e', 'd', toField('field3'))
      .addNode('f', (input: { field1: string; field2: string; field3: unknown[]; b: number }) =>
        [input.field1, input.field2, input.field3.join(' '), input.b].join('_'),
      )
      .addInput('f', 'b', mapFields('field2', 'b'))
      .addInput(
        'f',
        'e',
        mapFields('field1', 'field1'),
        mapFields('field2', 'field2'),
        mapFields('field3', 'field3'),
      )
      .addInput(END, 'f', toField('field1'))
      .compile();
    const input = { field1: '1', field2: 2, field3: [1, 'good'] };
    expect(await app.invoke(input)).toEqual({ field1: 'E:1_E:2_1 good_33' });
    const values = [];
    for await (const value of app.stream(input, { mode: 'values' })) values.push(value);
    expect(app.mode).toBe('dag');
  });

  it('maps between map keys, and from several nodes into END', async () => {
    const app = new Workflow<Record<string, unknown>, Record<string, unknown>>()
      .addNode('lambda1', (input: Record<string, unknown>) => input)
      .addNode('lambda2', (input: { f1: unknown }) => input)
      .addInput('lambda1', START, mapFields('map_key', 'lambda1_key'))
      .addInput('lambda2', START, mapFields('map_key', 'f1'))
      .addInput(END, 'lambda1', mapFields('lambda1_key', 'end_lambda1'))
      .addInput(END, 'lambda2', mapFields('f1', 'end_lambda2'))
      .compile();
    expect(await app.invoke({ map_key: 'value' })).toEqual({ end_lambda1: 'value', end_lambda2: 'value' });
  });

  it('follows nested paths on both sides, creating objects on the way', async () => {
    const nested = new Workflow<
      { key1: { key2: string } },
      { f1: { f1: string }; f2: { a: string; b: string } }
    >()
      .addInput(
        END,
        START,
        mapFields('key1.key2', 'f1.f1'),
        mapFields('key1.key2', 'f2.a'),
        mapFields('key1.key2', 'f2.b'),
      )
      .compile();
    expect(await nested.invoke({ key1: { key2: 'hello' } })).toEqual({
      f1: { f1: 'hello' },
      f2: { a: 'hello', b: 'hello' },
    });
    const dotted = new Workflow<Record<string, unknown>, unknown>()
      .addInput(END, START, mapFieldPaths(['p99.9'], ['tail', 'latency']))
      .compile();
    expect(await dotted.invoke({ 'p99.9': 12 })).toEqual({ tail: { latency: 12 } });
  });

  it('passes the whole output as the whole input, also into END', async () => {
    const app = new Workflow<string, number>()
      .addNode('length', (text: string) => text.length)
      .addInput('length', START)
      .addInput(END, 'length')
      .compile();
    expect(await app.invoke('hello')).toBe(5);
  });

  it('fails at run time naming node, source and field when a field is missing from the data', async () => {
    const app = new Workflow<Record<string, Record<string, string>>, string>()
      .addInput(END, START, fromField('f1.f1'))
      .compile();
    expect(await app.invoke({ f1: { f1: 'hello' } })).toBe('hello');
    const failure = await app.invoke({ f1: { f2: 'hello' } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FieldMappingError);
    expect(failure).toMatchObject({ node: END, source: START, field: 'f1.f1' });
    expect((failure as Error).message).toMatch(/"f1" has no field "f1"/);
    const notObject = await app.invoke({ f1: 1 as never }).catch((error: unknown) => error);
    expect((notObject as Error).message).toMatch(/"f1" is number, not an object/);
  });

  it('sets static values next to mapped fields', async () => {
    const app = new Workflow<string, Record<string, unknown>>()
      .addNode('zero', (input: Record<string, unknown>) => input)
      .addInput('zero', START, toField('start'))
      .setStaticValue('zero', 'prefilled', 'yo-ho')
      .addInput(END, 'zero')
      .compile();
    expect(await app.invoke('hello')).toEqual({ prefilled: 'yo-ho', start: 'hello' });
  });
});

describe('Workflow data and control edges', () => {
  it('carries data without triggering (indirect edge), Eino TestIndirectEdge', async () => {
    const app = new Workflow<string, Record<string, unknown>>()
      .addNode('1', (text: string) => `${text}_${text}`)
      .addInput('1', START)
      .addNode('2', (input: Record<string, string>) => `${input['1']}_${input.start}`)
      .addInput('2', '1', toField('1'))
      .addInputWithOptions('2', START, [toField('start')], { noDirectDependency: true })
      .addInput(END, '2', toField('2'))
      .addInputWithOptions(END, '1', [toField('1')], { noDirectDependency: true })
      .compile();
    expect(await app.invoke('query')).toEqual({ 1: 'query_query', 2: 'query_query_query' });
  });

  it('orders without carrying data (dependency), Eino TestDependencyWithNoInput', async () => {
    const order: string[] = [];
    const app = new Workflow<string, string>()
      .addNode('0', () => {
        order.push('0');
        return 'useless';
      })
      .addInput('0', START)
      .addNode('1', (text: string) => {
        order.push('1');
        return `${text}_done`;
      })
      .addDependency('1', '0')
      .addInputWithOptions('1', START, [], { noDirectDependency: true })
      .addInput(END, '1')
      .compile();
    expect(await app.invoke('hello')).toBe('hello_done');
    expect(order).toEqual(['0', '1']);
    const controlOnly = new Workflow<Record<string, unknown>, Record<string, unknown>>()
      .addNode('0', (input: unknown) => ({ result: 'result from node 0', input }))
      .addDependency('0', START)
      .addInput(END, '0', toField('final_result'))
      .addInputWithOptions(END, START, [toField('final_from_start')], { noDirectDependency: true })
      .compile();
    expect(await controlOnly.invoke({ input: 'hello' })).toEqual({
      final_result: { result: 'result from node 0', input: undefined },
      final_from_start: { input: 'hello' },
    });
  });

  it('branches from a passthrough; a skipped node contributes nothing (Eino TestBranch)', async () => {
    const app = new Workflow<string, Record<string, unknown>>()
      .addNode('1', (text: string) => `${text}_${text}`)
      .addNode('2', (text: string) => `${text}_${text}`)
      .addNode('0', (text: string) => `${text}_${text}`)
      .addInput('1', START)
      .addInputWithOptions('2', '1', [], { noDirectDependency: true })
      .addInput('0', START)
      .addPassthrough('branch_1')
      .addInput('branch_1', START, toField('start'))
      .addInput('branch_1', '1', toField('1'))
      .addDependency('branch_1', '0')
      .addBranch('branch_1', (input) => (input.start === 'hello' ? '2' : END), ['2', END])
      .addInput(END, '2', toField('2'))
      .addInputWithOptions(END, START, [toField('start')], { noDirectDependency: true })
      .compile();
    expect(await app.invoke('hello')).toEqual({ 2: 'hello_hello_hello_hello', start: 'hello' });
    expect(await app.invoke('world')).toEqual({ start: 'world' });
  });
});
