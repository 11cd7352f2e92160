import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputValidationError } from '../errors/input-validation-error.js';
import { WriteConflictError } from '../errors/write-conflict-error.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { Send } from '../vocabulary/send.js';
import { Chain } from './chain.js';
import { Graph } from './graph.js';

describe('dataflow Graph', () => {
  it('passes each node’s output to its successors', async () => {
    const app = new Graph<string, number>()
      .addNode('length', (text: string) => text.length)
      .addNode('double', (n: number) => n * 2)
      .addEdge(START, 'length')
      .addEdge('length', 'double')
      .addEdge('double', END)
      .compile();
    expect(await app.invoke('abcd')).toBe(8);
  });

  it('fans in through the target’s merge option, in predecessor declaration order', async () => {
    const calls: Array<[unknown[], string[]]> = [];
    const app = new Graph<number, number[]>()
      .addNode('plus', async (n: number) => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return n + 1;
      })
      .addNode('times', (n: number) => n * 10)
      .addNode('collect', (inputs: number[]) => inputs, {
        merge: (inputs, sources) => {
          calls.push([[...inputs], [...sources]]);
          return inputs;
        },
      })
      .addEdge(START, 'plus')
      .addEdge(START, 'times')
      .addEdge('plus', 'collect')
      .addEdge('times', 'collect')
      .addEdge('collect', END)
      .compile();
    expect(await app.invoke(2)).toEqual([3, 20]);
    expect(calls).toEqual([
      [
        [3, 20],
        ['plus', 'times'],
      ],
    ]);
  });

  it('fans in keyed outputs into one object', async () => {
    const app = new Graph<string, { upper: string; size: number }>()
      .addNode('up', (text: string) => text.toUpperCase(), { outputKey: 'upper' })
      .addNode('len', (text: string) => text.length, { outputKey: 'size' })
      .addNode('both', (value: { upper: string; size: number }) => value)
      .addEdge(START, 'up')
      .addEdge(START, 'len')
      .addEdge(['up', 'len'], 'both')
      .addEdge('both', END)
      .compile();
    expect(await app.invoke('hey')).toEqual({ upper: 'HEY', size: 3 });
  });

  it('reports unmergeable fan-in as a WriteConflictError naming the sources', async () => {
    const app = new Graph<number, number>()
      .addNode('a', (n: number) => n)
      .addNode('b', (n: number) => n)
      .addNode('sink', (n: number) => n)
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge('a', 'sink')
      .addEdge('b', 'sink')
      .addEdge('sink', END)
      .compile();
    const error = await app.invoke(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteConflictError);
    expect(error).toMatchObject({ key: 'sink', nodes: ['a', 'b'] });
  });

  it('reports two keyed outputs using one key', async () => {
    const app = new Graph<number, unknown>()
      .addNode('a', (n: number) => n, { outputKey: 'v' })
      .addNode('b', (n: number) => n, { outputKey: 'v' })
      .addNode('sink', (v: unknown) => v)
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(['a', 'b'], 'sink')
      .addEdge('sink', END)
      .compile();
    await expect(app.invoke(1)).rejects.toMatchObject({
      code: 'WRITE_CONFLICT',
      key: 'sink.v',
      nodes: ['a', 'b'],
    });
  });

  it('routes on a node’s output with a conditional edge', async () => {
    const app = new Graph<number, string>()
      .addNode('classify', (n: number) => n)
      .addNode('even', (n: number) => `${n} is even`)
      .addNode('odd', (n: number) => `${n} is odd`)
      .addEdge(START, 'classify')
      .addConditionalEdges('classify', (n) => (n % 2 === 0 ? 'even' : 'odd'), ['even', 'odd'])
      .addEdge('even', END)
      .addEdge('odd', END)
      .compile();
    expect(await app.invoke(4)).toBe('4 is even');
    expect(await app.invoke(3)).toBe('3 is odd');
  });

  it('loops with a back edge on a dataflow value', async () => {
    const app = new Graph<number, number>()
      .addNode('halve', (n: number) => Math.floor(n / 2))
      .addEdge(START, 'halve')
      .addConditionalEdges('halve', (n) => (n > 1 ? 'halve' : END))
      .compile();
    expect(await app.invoke(100)).toBe(1);
  });

  it('sends separate inputs to one node and merges what reaches END', async () => {
    const app = new Graph<number[], number[]>()
      .addNode('split', (items: number[]) => items)
      .addNode('square', (n: number) => n * n)
      .addNode('gather', (all: number[]) => all, { merge: (inputs) => inputs })
      .addEdge(START, 'split')
      .addConditionalEdges('split', (items) => items.map((n) => new Send('square', n)))
      .addEdge('square', 'gather')
      .addEdge('gather', END)
      .compile();
    expect(await app.invoke([1, 2, 3])).toEqual([1, 4, 9]);
  });

  it('applies a declared merge even when only one input arrived (one Send, or one branch taken)', async () => {
    const mapReduce = new Graph<number[], number[]>()
      .addNode('split', (items: number[]) => items)
      .addNode('square', (n: number) => n * n)
      .addNode('gather', (all: number[]) => all, { merge: (inputs) => inputs })
      .addEdge(START, 'split')
      .addConditionalEdges('split', (items) => items.map((n) => new Send('square', n)))
      .addEdge('square', 'gather')
      .addEdge('gather', END)
      .compile();
    expect(await mapReduce.invoke([5])).toEqual([25]);
    const branches = new Graph<number, string>()
      .addNode('small', (n: number) => `small ${n}`)
      .addNode('big', (n: number) => `big ${n}`)
      .addNode('report', (lines: string[]) => lines.join('; '), { merge: (inputs) => inputs })
      .addConditionalEdges(START, (n) => (n < 10 ? 'small' : ['small', 'big']), ['small', 'big'])
      .addEdge('small', 'report')
      .addEdge('big', 'report')
      .addEdge('report', END)
      .compile();
    expect(await branches.invoke(3)).toBe('small 3');
    expect(await branches.invoke(30)).toBe('small 30; big 30');
  });

  it('takes a Command’s update as the output and follows its goto', async () => {
    const app = new Graph<number, string>()
      .addNode('show', (n: number) => `got ${n}`)
      .addNode('decide', (n: number) => new Command({ update: n * 3, goto: 'show' }), { goto: ['show'] })
      .addEdge(START, 'decide')
      .addEdge('show', END)
      .compile();
    expect(await app.invoke(2)).toBe('got 6');
  });

  it('validates the run input when an input schema is given', async () => {
    let ran = false;
    const app = new Graph<string, number>({ input: z.string().min(2) })
      .addNode('len', (text: string) => {
        ran = true;
        return text.length;
      })
      .addEdge(START, 'len')
      .addEdge('len', END)
      .compile();
    await expect(app.invoke('x')).rejects.toBeInstanceOf(InputValidationError);
    expect(ran).toBe(false);
  });

  it('validates a node’s input and output with its schemas', async () => {
    const app = new Graph<number, number>()
      .addNode('strict', (n: number) => n + 1, { input: z.number(), output: z.number().max(5) })
      .addEdge(START, 'strict')
      .addEdge('strict', END)
      .compile();
    expect(await app.invoke(1)).toBe(2);
    await expect(app.invoke('one' as never)).rejects.toMatchObject({ code: 'NODE_FAILED', node: 'strict' });
    await expect(app.invoke(9)).rejects.toThrow(/output failed its schema/);
  });
});

describe('Chain', () => {
  it('pipes each step’s output into the next', async () => {
    const app = new Chain<string>()
      .pipe((text) => text.trim())
      .pipe((text) => text.split(' '), { name: 'split' })
      .pipe((words) => words.length)
      .compile();
    expect(await app.invoke('  a b c ')).toBe(3);
    expect(app.toJSON().nodes.map((n) => n.id)).toEqual([START, 'step-1', 'split', 'step-3', END]);
  });

  it('can branch: two chains built from one prefix are independent', async () => {
    const base = new Chain<string>().pipe((text) => text.trim());
    const length = base.pipe((text) => text.length);
    const upper = base.pipe((text) => text.toUpperCase());
    expect(await length.compile().invoke(' ab ')).toBe(2);
    expect(await upper.compile().invoke(' ab ')).toBe('AB');
    expect(await base.compile().invoke(' ab ')).toBe('ab');
  });
});
