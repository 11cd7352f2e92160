/**
 * A hand-off between two agents that are subgraphs: the front-desk agent reads the request and, when it
 * is about billing, returns `Command({ graph: Command.PARENT, goto: 'billing', update })` — its subgraph
 * stops and the team graph writes the update and runs the billing agent next. The billing agent asks a
 * human to confirm a refund (a pause inside a subgraph), and the resumed run continues inside it.
 * The "agents" reply from scripts so the example runs offline.
 * Run it with `pnpm --filter @weft/examples handoff`.
 */
import { appendReducer, Command, END, MemoryCheckpointer, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

const Conversation = z.object({
  messages: z.array(z.string()).default([]),
  /** Which agent holds the conversation. */
  active: z.string().default('front-desk'),
});
const reducers = { messages: appendReducer };
type TeamUpdate = { messages?: string | string[]; active?: string };
type TeamNode = 'front-desk' | 'billing';

/** The front-desk agent: answers general questions, hands billing questions to the billing agent. */
export const frontDesk = new StateGraph(Conversation, { reducers })
  .addNode('reply', (state) => {
    const request = state.messages.at(-1) ?? '';
    if (!/refund|invoice|charge/i.test(request)) return { messages: 'front-desk: our hours are 9 to 5' };
    // Typed by the team's update and node names: a misspelt agent would not compile.
    return new Command<TeamUpdate, TeamNode, typeof Command.PARENT>({
      graph: Command.PARENT,
      goto: 'billing',
      update: { messages: 'front-desk: passing you to billing', active: 'billing' },
    });
  })
  .addNode('follow-up', () => ({ messages: 'front-desk: anything else?' }))
  .addEdge(START, 'reply')
  .addEdge('reply', 'follow-up')
  .addEdge('follow-up', END)
  .compile({ name: 'front-desk' });

/** The billing agent: confirms a refund with a human before promising it. */
export const billing = new StateGraph(Conversation, { reducers })
  .addNode('refund', (state, ctx) => {
    const ok = ctx.interrupt<boolean>({ confirm: `refund for: ${state.messages[0]}` });
    return { messages: ok ? 'billing: refund issued' : 'billing: a colleague will call you' };
  })
  .addEdge(START, 'refund')
  .addEdge('refund', END)
  .compile({ name: 'billing' });

/** The team: the front desk takes every request and may hand it to billing. */
export function buildTeam(checkpointer = new MemoryCheckpointer()) {
  return new StateGraph(Conversation, { reducers })
    .addNode('billing', billing)
    .addNode('front-desk', frontDesk, { goto: ['billing'] })
    .addEdge(START, 'front-desk')
    .addEdge('front-desk', END)
    .addEdge('billing', END)
    .compile({ name: 'team', checkpointer });
}

/** Runs a general question and a billing question (with the human's confirmation). */
export async function main(print: (line: string) => void = console.log) {
  const team = buildTeam();
  const general = await team.invoke({ messages: ['when are you open?'] }, { threadId: 'general' });
  print(general.messages.join(' | '));
  const paused = await team.run({ messages: ['I want a refund for order 17'] }, { threadId: 'refund' });
  print(
    `paused in ${paused.interrupts[0]?.path.join(' > ')}: ${JSON.stringify(paused.interrupts[0]?.value)}`,
  );
  const done = await team.invoke(new Command({ resume: true }), { threadId: 'refund' });
  print(done.messages.join(' | '));
  return { general, done };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
