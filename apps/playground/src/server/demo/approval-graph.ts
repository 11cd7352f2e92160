import { appendReducer, END, type NodeContext, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

const RefundState = z.object({
  order: z.string().default('A-17'),
  amount: z.number().default(40),
  decision: z.enum(['approved', 'rejected']).optional(),
  reviewer: z.string().optional(),
  log: z.array(z.string()).default([]),
});

const RefundInput = z
  .object({
    order: z.string().min(1).optional().describe('Order number').meta({ default: 'A-17' }),
    amount: z.number().positive().max(10_000).optional().describe('Refund (EUR)').meta({ default: 40 }),
  })
  .strict();

/** What the reviewer answers; its JSON Schema travels with the interrupt so the UI can draw a form. */
const Decision = z.object({
  approve: z.boolean().describe('Approve the refund'),
  reviewer: z.string().min(1).describe('Your name'),
  note: z.string().optional().describe('A note for the customer'),
});

function askForDecision(state: z.infer<typeof RefundState>, ctx: NodeContext): z.infer<typeof Decision> {
  const question = `Refund ${state.amount} EUR for order ${state.order}?`;
  const schema = z.toJSONSchema(Decision);
  let problem: string | undefined;
  // An answer that does not fit the schema is asked again (each interrupt() call is its own pause).
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = ctx.interrupt({ type: 'approval', question, schema, ...(problem ? { problem } : {}) });
    const parsed = Decision.safeParse(answer);
    if (parsed.success) return parsed.data;
    problem = parsed.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ');
  }
  return { approve: false, reviewer: 'nobody', note: `no valid answer (${problem})` };
}

/**
 * The demo's human approval: `check` validates the refund, `approve` pauses with an interrupt whose
 * value carries a JSON Schema (the playground draws the form from it), and `payout` runs only when the
 * reviewer approved.
 *
 * @example
 * ```ts
 * const paused = await buildApprovalGraph().run({ amount: 40 }, { threadId: 't' }); // needs a checkpointer
 * ```
 */
export function buildApprovalGraph() {
  return new StateGraph(RefundState, { reducers: { log: appendReducer }, input: RefundInput })
    .addNode('check', (state) => ({ log: `checked order ${state.order}: ${state.amount} EUR is refundable` }))
    .addNode('approve', (state, ctx) => {
      const decision = askForDecision(state, ctx);
      return {
        decision: decision.approve ? ('approved' as const) : ('rejected' as const),
        reviewer: decision.reviewer,
        log: `${decision.reviewer} ${decision.approve ? 'approved' : 'rejected'}${decision.note ? `: ${decision.note}` : ''}`,
      };
    })
    .addNode('payout', (state) => ({ log: `paid ${state.amount} EUR for ${state.order}` }))
    .addEdge(START, 'check')
    .addEdge('check', 'approve')
    .addConditionalEdges('approve', (state) => (state.decision === 'approved' ? 'payout' : END), [
      'payout',
      END,
    ])
    .addEdge('payout', END)
    .compile({ name: 'refund-approval' });
}
