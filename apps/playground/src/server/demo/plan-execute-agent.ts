import { type Agent, type Message, messageText, tool } from '@weft/adk';
import { ScriptedChatModel, type ScriptedResponse } from '@weft/adk/testing';
import { createPlanExecute } from '@weft/prebuilt';
import { z } from 'zod';

const search = tool({
  name: 'search',
  description: 'Searches a small knowledge base',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `Notes on "${query}": Weft compiles every agent to a graph.`,
});

const steps = (prompt: string, heading: string): string[] => {
  const section = prompt.split(`${heading}\n`)[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/^\d+\. (.+)$/gm)].map((m) => m[1] as string);
};

/** The planner: two steps for any request. */
function plan(messages: readonly Message[], _o: unknown, call: number): ScriptedResponse {
  const request = messageText(messages.filter((m) => m.role === 'user').at(-1) ?? messages[0]!);
  const planned = [`Search for: ${request}`, 'Write the answer from the notes'];
  return { toolCalls: [{ id: `plan-${call}`, name: 'plan', arguments: { steps: planned } }] };
}

/** The executor: searches for a search step, writes for any other; reports the result. */
function execute(messages: readonly Message[], _o: unknown, call: number): ScriptedResponse {
  const last = messages.at(-1);
  if (last?.role === 'tool') return `Found: ${messageText(last)}`;
  const step = /reply with its result: (.+)$/.exec(messageText(messages[0]!))?.[1] ?? '';
  if (step.startsWith('Search for: '))
    return { toolCalls: [{ id: `exe-${call}`, name: 'search', arguments: { query: step.slice(12) } }] };
  return 'Answer: Weft compiles every agent to a graph, so every run can be drawn and resumed.';
}

/** The replanner: keeps the steps left, or responds with the last result when none are left. */
function replan(messages: readonly Message[], _o: unknown, call: number): ScriptedResponse {
  const prompt = messageText(messages[0]!);
  const left = steps(prompt, 'Steps still to do:');
  if (left.length > 0)
    return { toolCalls: [{ id: `rep-${call}`, name: 'plan', arguments: { steps: left } }] };
  const results = [...prompt.matchAll(/Result: (.+)$/gm)].map((m) => m[1] as string);
  const response = results.at(-1) ?? 'Nothing to report.';
  return { toolCalls: [{ id: `rep-${call}`, name: 'respond', arguments: { response } }] };
}

/**
 * The demo's plan-execute agent on scripted models: the planner writes two steps, the executor does
 * each (searching for the first), the replanner keeps the plan and responds when nothing is left.
 *
 * @example
 * ```ts
 * const agent = buildPlanExecuteAgent();
 * ```
 */
export function buildPlanExecuteAgent(options: { readonly chunkDelayMs?: number } = {}): Agent {
  const model = (name: string, script: typeof plan) =>
    new ScriptedChatModel(script, { name: `scripted-${name}`, chunkDelayMs: options.chunkDelayMs ?? 40 });
  return createPlanExecute({
    planner: { model: model('planner', plan) },
    executor: { model: model('executor', execute), tools: [search] },
    replanner: { model: model('replanner', replan) },
    maxIterations: 5,
  });
}
