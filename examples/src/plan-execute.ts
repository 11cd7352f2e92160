/**
 * A plan-execute-replan agent that answers a question in steps with a population table and a
 * calculator: offline on scripted models, or on a real model when `OPENAI_API_KEY` is set (optionally
 * `OPENAI_BASE_URL`, `OPENAI_MODEL`). Run it with `pnpm --filter @weft/examples plan-execute`.
 */
import { type ChatModel, MemorySessionService, messageText, Runner, tool } from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { ScriptedChatModel } from '@weft/adk/testing';
import { createPlanExecute, EXECUTED_STEPS_KEY, type ExecutedStep, PLAN_KEY } from '@weft/prebuilt';
import { z } from 'zod';

const populations: Record<string, number> = { oslo: 709_000, bergen: 291_000 };

/** The population of a city, from a small table. */
export const population = tool({
  name: 'population',
  description: 'The population of a Norwegian city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => populations[city.toLowerCase()] ?? `unknown city ${city}`,
});

/** Adds numbers. */
export const add = tool({
  name: 'add',
  description: 'Adds numbers',
  parameters: z.object({ numbers: z.array(z.number()) }),
  execute: ({ numbers }) => numbers.reduce((a, b) => a + b, 0),
});

/** The models of the three roles. */
export interface RoleModels {
  readonly planner: ChatModel;
  readonly executor: ChatModel;
  readonly replanner: ChatModel;
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args });

/** What real models would do for the demo question (tool-call ids are unique across the models). */
export function scriptedModels(): RoleModels {
  return {
    planner: new ScriptedChatModel([
      {
        toolCalls: [
          call('plan-1', 'plan', { steps: ['Find the populations of Oslo and Bergen', 'Add them up'] }),
        ],
      },
    ]),
    executor: new ScriptedChatModel([
      {
        toolCalls: [
          call('exe-1', 'population', { city: 'Oslo' }),
          call('exe-2', 'population', { city: 'Bergen' }),
        ],
      },
      'Oslo has 709000 people, Bergen 291000.',
      { toolCalls: [call('exe-3', 'add', { numbers: [709_000, 291_000] })] },
      'Together: 1000000.',
    ]),
    replanner: new ScriptedChatModel([
      { toolCalls: [call('rep-1', 'plan', { steps: ['Add 709000 and 291000'] })] },
      {
        toolCalls: [
          call('rep-2', 'respond', { response: 'Oslo and Bergen have 1 000 000 people together.' }),
        ],
      },
    ]),
  };
}

/** Runs the demo question; returns the answer, the executed steps and the steps left. */
export async function main(
  print: (line: string) => void = console.log,
  models: RoleModels = defaultModels(),
) {
  const agent = createPlanExecute({
    planner: { model: models.planner },
    executor: { model: models.executor, tools: [population, add] },
    replanner: { model: models.replanner },
    maxIterations: 6,
  });
  const sessions = new MemorySessionService();
  const runner = new Runner({ agent, sessionService: sessions, streaming: false });
  let answer = '';
  for await (const event of runner.run({
    userId: 'demo',
    sessionId: 'cities',
    message: 'How many people live in Oslo and Bergen together?',
  })) {
    const message = event.message;
    if (message?.role === 'assistant' && message.toolCalls?.length)
      print(`${event.author} calls ${message.toolCalls.map((c) => `${c.name}(${c.arguments})`).join(', ')}`);
    else if (message?.role === 'assistant') print(`${event.author}: ${messageText(message)}`);
    if (event.author === agent.name && message?.role === 'assistant') answer = messageText(message);
  }
  const state =
    (await sessions.get({ appName: agent.name, userId: 'demo', sessionId: 'cities' }))?.state ?? {};
  const executed = (state[EXECUTED_STEPS_KEY] ?? []) as ExecutedStep[];
  for (const [i, step] of executed.entries()) print(`step ${i + 1}: ${step.step} → ${step.result}`);
  return { answer, executed, left: state[PLAN_KEY] };
}

function defaultModels(): RoleModels {
  if (!process.env.OPENAI_API_KEY) return scriptedModels();
  const model = new OpenAIChatModel({});
  return { planner: model, executor: model, replanner: model };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
