// Stream modes of an entrypoint, as for graphs: values (its return value), updates (each task's result,
// then the entrypoint's), custom and messages from the body and from tasks, and events for each task.
import { describe, expect, it } from 'vitest';
import { entrypoint, getContext, interrupt, task } from '../src/func/index.js';
import { Command, MemoryCheckpointer, type RunEvent } from '../src/index.js';

function workflow() {
  const upper = task('upper', (word: string) => {
    getContext().emit({ upper: word });
    return word.toUpperCase();
  });
  const spell = task('spell', async (word: string) => {
    for (const letter of word) await getContext().chunk(letter);
    return word.split('');
  });
  return entrypoint(
    { name: 'words', checkpointer: new MemoryCheckpointer(), tasks: [upper, spell] },
    async (word: string, ctx) => {
      ctx.emit({ start: word });
      const [big, letters] = await Promise.all([upper(word), spell(word)]);
      const ok = word === 'ask' ? interrupt<boolean>('go on?') : true;
      return { big, letters, ok };
    },
  );
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('stream modes of an entrypoint', () => {
  it('draws as its one node, carrying the tasks it declared', () => {
    const json = workflow().toJSON();
    expect(json.nodes.map((node) => node.id)).toEqual(['__start__', 'words', '__end__']);
    expect(json.nodes[1]).toMatchObject({ id: 'words', kind: 'function', tasks: ['upper', 'spell'] });
  });

  it('values yields the return value once it returned; updates yields each task, then the entrypoint', async () => {
    const app = workflow();
    const values = await collect(app.stream('hi', { threadId: 's1' }));
    expect(values).toEqual([{ big: 'HI', letters: ['h', 'i'], ok: true }]);
    const updates = await collect(app.stream('yo', { threadId: 's1', mode: 'updates' }));
    expect(updates.map((u) => u.node).sort()).toEqual(['spell', 'upper', 'words']);
    expect(updates.at(-1)).toEqual({
      node: 'words',
      update: { big: 'YO', letters: ['y', 'o'], ok: true },
      path: [],
    });
    expect(updates.find((u) => u.node === 'upper')?.update).toBe('YO');
  });

  it('custom and messages carry what the body and the tasks send, tagged with the task', async () => {
    const app = workflow();
    const parts = await collect(app.stream('ab', { threadId: 's2', mode: ['custom', 'messages'] }));
    const custom = parts.filter(([mode]) => mode === 'custom').map(([, part]) => part);
    expect(custom).toEqual([
      { node: 'words', data: { start: 'ab' }, path: [] },
      { node: 'upper', data: { upper: 'ab' }, path: [] },
    ]);
    const messages = parts.filter(([mode]) => mode === 'messages').map(([, part]) => part);
    expect(messages).toEqual([
      { node: 'spell', chunk: 'a', path: [] },
      { node: 'spell', chunk: 'b', path: [] },
    ]);
  });

  it('events show each task call as a node under the entrypoint, and a pause as interrupt', async () => {
    const app = workflow();
    const events = (await collect(app.stream('ask', { threadId: 's3', mode: 'events' }))) as RunEvent[];
    const nodes = events
      .filter((e) => e.type === 'node-start' || e.type === 'node-end')
      .map((e) => `${e.type} ${e.path.join('>')}`);
    expect(nodes).toEqual(
      expect.arrayContaining([
        'node-start words',
        'node-start words>upper',
        'node-end words>upper',
        'node-start words>spell',
        'node-end words>spell',
      ]),
    );
    const taskIds = events.filter((e) => e.type === 'node-end').map((e) => (e as { taskId: string }).taskId);
    expect(new Set(taskIds).size).toBe(taskIds.length);
    expect(events.some((e) => e.type === 'interrupt')).toBe(true);
    // Resuming does not call the finished tasks again: no node events for them.
    const resumed = (await collect(
      app.stream(new Command({ resume: true }), { threadId: 's3', mode: 'events' }),
    )) as RunEvent[];
    expect(resumed.filter((e) => e.type === 'node-start').map((e) => e.path.join('>'))).toEqual(['words']);
    expect(resumed.find((e) => e.type === 'run-end')).toMatchObject({ status: 'done' });
  });

  it('a paused stream ends with __interrupt__ (values: the interrupts only)', async () => {
    const app = workflow();
    const values = await collect(app.stream('ask', { threadId: 's4' }));
    expect(values).toHaveLength(1);
    expect(Object.keys(values[0] as object)).toEqual(['__interrupt__']);
    const done = await collect(app.stream(new Command({ resume: false }), { threadId: 's4' }));
    expect(done).toEqual([{ big: 'ASK', letters: ['a', 's', 'k'], ok: false }]);
  });
});
