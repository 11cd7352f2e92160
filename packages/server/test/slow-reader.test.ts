// Fault test: a client that never reads its stream. The run does not wait for it (events go to the
// store, not to a per-client buffer), and the server pulls from the store only as fast as the socket
// drains, so what it holds for that client stays bounded while the run finishes.
import { request } from 'node:http';
import { END, START, StateGraph } from '@weft/compose';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { startServer } from './fixtures/start.js';

const chatty = new StateGraph(z.object({ n: z.number() }))
  .addNode('talk', (state, ctx) => {
    for (let i = 0; i < 3000; i++) ctx.emit({ i, padding: 'x'.repeat(200) });
    return { n: state.n + 1 };
  })
  .addEdge(START, 'talk')
  .addEdge('talk', END)
  .compile();

test('a client that never reads does not hold up the run', async () => {
  const { served, client } = await startServer({ graphs: { chatty } });
  try {
    const thread = await client.threads.create();
    const url = new URL(`${served.url}/threads/${thread.thread_id}/runs/stream`);
    const body = JSON.stringify({ assistant_id: 'chatty', input: { n: 0 }, stream_mode: ['custom'] });
    let received = 0;
    const stalled = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            res.pause(); // never reads again
          });
          resolve(res);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const [run] = await client.runs.list(thread.thread_id);
    expect(await client.runs.join(thread.thread_id, run!.run_id)).toBeNull();
    expect((await client.runs.get(thread.thread_id, run!.run_id)).status).toBe('success');
    expect((await client.threads.getState(thread.thread_id)).values).toEqual({ n: 1 });
    // ~660 KB of events were produced; the stalled client got only what the socket buffers took.
    expect(received).toBeLessThan(660_000);
    stalled.destroy();
  } finally {
    await served.close();
  }
});
