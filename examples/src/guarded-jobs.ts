/**
 * An agent with a guardrail and a long-running tool: an input guardrail stops turns that carry a
 * password; the `render_report` tool hands its work to a job queue and returns `pending(jobId)`, so the
 * run pauses (the session waits) until the queue's webhook delivers the report through
 * `runner.resume`. Runs offline on the scripted model, or on a real model when `OPENAI_API_KEY` is set.
 * Run it with `pnpm --filter @weft/examples guarded-jobs`.
 */
import {
  type ChatModel,
  ChatModelAgent,
  GuardrailTripwireError,
  guardrails,
  MemorySessionService,
  messageText,
  pending,
  Runner,
  type ToolPendingRequest,
  tool,
} from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { ScriptedChatModel } from '@weft/adk/testing';
import { z } from 'zod';

/** A stand-in job queue: submitted jobs wait here until `finish` is called (a worker, a webhook). */
export class JobQueue {
  readonly jobs = new Map<string, string>();
  submit(topic: string): string {
    const id = `job-${this.jobs.size + 1}`;
    this.jobs.set(id, topic);
    return id;
  }
}

/** Stops any turn whose message looks like it carries a password. */
export const noPasswords = {
  name: 'no-passwords',
  execute: ({ input }: { input: string }) => ({
    tripwireTriggered: /password\s*[:=]/i.test(input),
    outputInfo: { reason: 'the message holds a password' },
  }),
};

/** The scripted model replays what a real model would do for the demo. */
export function scriptedModel(): ChatModel {
  return new ScriptedChatModel((messages) => {
    const last = messages.at(-1);
    if (last?.role === 'user')
      return { toolCalls: [{ name: 'render_report', arguments: { topic: 'Q3 sales' } }] };
    return `Your report is ready: ${last ? messageText(last) : ''}`;
  });
}

/** Runs the demo: a blocked turn, a turn that waits on a job, the job's result delivered later. */
export async function main(print: (line: string) => void = console.log, model: ChatModel = defaultModel()) {
  const queue = new JobQueue();
  const renderReport = tool({
    name: 'render_report',
    description: 'Renders a sales report; takes minutes, so it is queued',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => pending(queue.submit(topic), { eta: 'a few minutes' }),
  });
  const agent = new ChatModelAgent({
    name: 'analyst',
    instruction: 'You prepare sales reports with the render_report tool. Answer in one sentence.',
    model,
    tools: [renderReport],
    middleware: [guardrails({ input: [noPasswords] })],
  });
  const sessionService = new MemorySessionService();
  const runner = new Runner({ agent, sessionService, streaming: false });
  const ref = { userId: 'demo', sessionId: 'reports' };
  const key = { appName: 'analyst', ...ref };

  try {
    for await (const _ of runner.run({ ...ref, message: 'My password: hunter2. Send me the Q3 report.' }));
  } catch (error) {
    if (!GuardrailTripwireError.isInstance(error)) throw error;
    print(`blocked by ${error.guardrail}: ${(error.outputInfo as { reason: string }).reason}`);
  }

  let waitingOn: ToolPendingRequest | undefined;
  for await (const event of runner.run({ ...ref, message: 'Please render the Q3 sales report.' })) {
    const pause = event.interrupts?.find((i) => (i.value as ToolPendingRequest).type === 'tool-pending');
    if (pause) waitingOn = pause.value as ToolPendingRequest;
  }
  const waiting = await sessionService.get(key);
  print(`session ${waiting?.status}: ${waitingOn?.tool} is ${waitingOn?.pendingId}`);

  // Later — another request, maybe another process — the queue's webhook delivers the result.
  const url = `https://reports.example/${waitingOn?.pendingId}.pdf`;
  let answer = '';
  for await (const event of runner.resume({ ...ref, decisions: url }))
    if (event.message?.role === 'assistant') answer = messageText(event.message);
  print(`analyst: ${answer}`);
  print(
    `session ${(await sessionService.get(key))?.status} after ${(await sessionService.get(key))?.turns} turns`,
  );
  return answer;
}

function defaultModel(): ChatModel {
  return process.env.OPENAI_API_KEY ? new OpenAIChatModel({}) : scriptedModel();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
