import { describe, expect, it } from 'vitest';
import { MemoryCheckpointer } from '../../checkpoint/memory-checkpointer.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { mapFields, toField } from './field-mapping.js';
import { Workflow } from './workflow.js';

describe('Workflow durability (durable DAG mode)', () => {
  it('pauses in a node, and on resume the mapped and data-only inputs are there without re-running finished nodes', async () => {
    const runs: string[] = [];
    const app = new Workflow<
      { order: { id: string; amount: number } },
      { id: string; approved: boolean; note: string }
    >()
      .addNode('score', (amount: number) => {
        runs.push('score');
        return { risk: amount > 100 ? 'high' : 'low' };
      })
      .addInput('score', START, mapFields('order.amount', ''))
      .addNode('approve', (input: { risk: string }, ctx) => {
        runs.push('approve');
        return ctx.interrupt<boolean>({ risk: input.risk });
      })
      .addInput('approve', 'score', mapFields('risk', 'risk'))
      .addInput(END, 'approve', toField('approved'))
      .addInputWithOptions(END, START, [mapFields('order.id', 'id')], { noDirectDependency: true })
      .addInputWithOptions(END, 'score', [mapFields('risk', 'note')], { noDirectDependency: true })
      .compile({ checkpointer: new MemoryCheckpointer() });
    const paused = await app.run({ order: { id: 'o-1', amount: 500 } }, { threadId: 'wf-durable-1' });
    expect(paused.status).toBe('interrupted');
    expect(paused.interrupts[0]?.value).toEqual({ risk: 'high' });
    const done = await app.invoke(new Command({ resume: true }), { threadId: 'wf-durable-1' });
    expect(done).toEqual({ id: 'o-1', approved: true, note: 'high' });
    expect(runs).toEqual(['score', 'approve', 'approve']);
  });
});
