// A ReAct agent loop: 10 tool rounds with a zero-latency fake model, so only the framework is measured.

import { MemoryCheckpointer } from '@weft/compose';
import { type AgentOutcome, langGraphAgent } from '../agents/langgraph-agent.ts';
import { weftAgent } from '../agents/weft-agent.ts';
import { expectEqual } from '../harness.ts';
import { interleaved, ratio } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, batched, compareRow, measures, pick, type Workload } from '../workload.ts';

const ROUNDS = 10;
/** The user message, then an assistant tool call and a tool result per round, then the answer. */
const EXPECTED: AgentOutcome = { messages: 1 + 2 * ROUNDS + 1, last: 'done' };

/** Floor: the same conversation as a plain loop with an async model and an async tool. */
async function floorAgent(): Promise<AgentOutcome> {
  const messages: { role: string; content: string; call?: number }[] = [{ role: 'user', content: 'go' }];
  const model = async () => {
    const done = messages.filter((message) => message.role === 'tool').length;
    return done < ROUNDS
      ? { role: 'assistant', content: '', call: done }
      : { role: 'assistant', content: 'done' };
  };
  const step = async (i: number) => ({ role: 'tool', content: `step ${i} ok` });
  for (;;) {
    const reply = await model();
    messages.push(reply);
    if (reply.call === undefined) break;
    messages.push(await step(reply.call));
  }
  return { messages: messages.length, last: messages.at(-1)?.content ?? '' };
}

export const agentLoopWorkload: Workload = {
  name: 'agent',
  async run(context: BenchContext) {
    const invokes = pick(context, 1, 5);
    const langGraph = langGraphAgent(ROUNDS);
    const once = { weft: weftAgent(ROUNDS), langgraph: langGraph, floor: floorAgent };
    const row = await compareRow<AgentOutcome>(context, {
      workload: `agent loop: ${ROUNDS} tool rounds`,
      unit: 'ms/invoke',
      scale: (ms) => ms / invokes,
      runs: batched(invokes, once),
      once,
      check: (outcome) => expectEqual('agent outcome', outcome, EXPECTED),
    });
    return [row, ...(await checkpointedRows(context, invokes))];
  },
};

/** Weft only: the same turn without and with `MemoryCheckpointer`, interleaved; the note gives the ratio. */
async function checkpointedRows(context: BenchContext, invokes: number): Promise<Row[]> {
  if (!measures(context, 'weft')) return [];
  const plain = weftAgent(ROUNDS);
  const durable = weftAgent(ROUNDS, new MemoryCheckpointer());
  const check = (outcome: unknown) => expectEqual('agent outcome', outcome, EXPECTED);
  context.log(`  agent: ${ROUNDS} tool rounds × ${invokes}, without and with a checkpointer interleaved`);
  const [off, on] = (await interleaved(
    context,
    { prefix: 'agent loop', size: `${ROUNDS} tool rounds` },
    [
      { label: 'no checkpointer', once: plain, check },
      { label: 'MemoryCheckpointer', once: durable, check },
    ],
    invokes,
  )) as [Row, Row];
  return [
    { ...off, heap: 'samples interleaved; heap not measured' },
    { ...on, heap: '', notes: [`agent turn: with / without a checkpointer = ${ratio(on, off)}`] },
  ];
}
