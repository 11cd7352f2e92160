// Weft in a web page: a graph with a loop, an interrupt and a resume on the in-memory checkpointer, and
// a streaming agent on a scripted model, bundled by Vite with no Node built-ins. The browser test
// (src/browser.test.ts) builds this page and reads `window.weftResult`.
import { ChatModelAgent, MemorySessionService, Runner } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { Command, END, MemoryCheckpointer, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

async function loopInterruptResume() {
  const app = new StateGraph(z.object({ count: z.number(), approved: z.boolean().default(false) }))
    .addNode('increment', (state) => ({ count: state.count + 1 }))
    .addNode('approve', async (_state, ctx) => ({ approved: (await ctx.interrupt('ship it?')) === 'yes' }))
    .addEdge(START, 'increment')
    .addConditionalEdges('increment', (state) => (state.count < 3 ? 'increment' : 'approve'))
    .addEdge('approve', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
  const paused = await app.run({ count: 0 }, { threadId: 'browser' });
  const resumed = await app.invoke(new Command({ resume: 'yes' }), { threadId: 'browser' });
  return { status: paused.status, question: paused.interrupts?.[0]?.value, final: resumed };
}

async function streamingAgent() {
  const agent = new ChatModelAgent({
    name: 'greeter',
    model: new ScriptedChatModel(['Hello from a Weft agent running in your browser.'], { chunkSize: 6 }),
  });
  const runner = new Runner({ agent, sessionService: new MemorySessionService() });
  let chunks = 0;
  let answer = '';
  for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Hi' })) {
    if (event.partial) chunks += 1;
    else if (event.message?.role === 'assistant') answer = String(event.message.content);
  }
  return { chunks, answer };
}

declare global {
  interface Window {
    weftResult?: unknown;
  }
}

const out = document.getElementById('out') as HTMLElement;
try {
  const result = { graph: await loopInterruptResume(), agent: await streamingAgent() };
  window.weftResult = result;
  out.textContent = JSON.stringify(result, null, 2);
} catch (error) {
  window.weftResult = { error: String((error as Error).stack ?? error) };
  out.textContent = String(error);
}
