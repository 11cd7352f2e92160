/**
 * A deep agent that plans with a todo list and works on files: offline on the scripted model, or on a
 * real model when `OPENAI_API_KEY` is set (optionally `OPENAI_BASE_URL`, `OPENAI_MODEL`).
 * Run it with `pnpm --filter @weft/examples deep-agent`.
 */
import { type AgentEvent, type ChatModel, MemorySessionService, Runner } from '@weft/adk';
import { OpenAIChatModel } from '@weft/adk/openai';
import { ScriptedChatModel } from '@weft/adk/testing';
import { createDeepAgent, MemoryBackend, TODOS_KEY, type Todo } from '@weft/prebuilt';

/** The project the agent reviews. */
export const project = {
  '/src/cart.ts':
    'export function total(prices: number[]) {\n  // TODO: apply discounts\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
  '/src/user.ts': 'export interface User {\n  name: string; // TODO: add email\n}\n',
  '/README.md': '# Shop\n',
};

const todos = (cart: string, user: string, report: string) => ({
  name: 'write_todos',
  arguments: {
    todos: [
      { content: 'Find the TODO comments', status: cart },
      { content: 'Read the files that have them', status: user },
      { content: 'Write /TODO_REPORT.md', status: report },
    ],
  },
});

/** What a real model would do for the demo request. */
export function scriptedModel(): ChatModel {
  return new ScriptedChatModel([
    { toolCalls: [todos('in_progress', 'pending', 'pending')] },
    { toolCalls: [{ name: 'grep', arguments: { pattern: 'TODO', glob: '**/*.ts' } }] },
    {
      toolCalls: [
        todos('completed', 'in_progress', 'pending'),
        { name: 'read_file', arguments: { path: '/src/cart.ts' } },
      ],
    },
    {
      toolCalls: [
        todos('completed', 'completed', 'in_progress'),
        {
          name: 'write_file',
          arguments: {
            path: '/TODO_REPORT.md',
            content: '# TODOs\n- src/cart.ts:2 apply discounts\n- src/user.ts:2 add email\n',
          },
        },
      ],
    },
    { toolCalls: [todos('completed', 'completed', 'completed')] },
    'I found 2 TODOs and listed them in /TODO_REPORT.md.',
  ]);
}

function describeEvent(event: AgentEvent): string[] {
  const lines: string[] = [];
  const message = event.message;
  if (message?.role === 'assistant' && message.toolCalls?.length)
    lines.push(`${event.author} calls ${message.toolCalls.map((c) => c.name).join(', ')}`);
  else if (message?.role === 'assistant') lines.push(`${event.author}: ${String(message.content)}`);
  // Tool writes to session state arrive as the stateDelta of the tool step's last event.
  const delta = event.actions.stateDelta;
  if (delta && TODOS_KEY in delta) lines.push(`todos:\n${formatTodos(delta[TODOS_KEY] as Todo[])}`);
  return lines;
}

/** A todo list as checkbox lines: `[x]` done, `[~]` in progress, `[ ]` pending. */
function formatTodos(todos: readonly Todo[]): string {
  const mark = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;
  return todos.map((todo) => `${mark[todo.status]} ${todo.content}`).join('\n');
}

/** Runs the demo request and prints the agent's steps; returns the final answer, report and todos. */
export async function main(print: (line: string) => void = console.log, model: ChatModel = defaultModel()) {
  const backend = new MemoryBackend(project);
  const agent = createDeepAgent({ model, backend, instruction: 'You review code and write short reports.' });
  const sessions = new MemorySessionService();
  const runner = new Runner({ agent, sessionService: sessions, streaming: false });
  let answer = '';
  for await (const event of runner.run({
    userId: 'demo',
    sessionId: 'review',
    message: 'List the TODOs of this project in /TODO_REPORT.md',
  })) {
    for (const line of describeEvent(event)) print(line);
    if (event.message?.role === 'assistant' && !event.message.toolCalls?.length)
      answer = String(event.message.content);
  }
  const session = await sessions.get({ appName: agent.name, userId: 'demo', sessionId: 'review' });
  const report = backend.toJSON()['/TODO_REPORT.md'];
  print(`report:\n${report ?? '(none)'}`);
  return { answer, report, todos: session?.state[TODOS_KEY] };
}

function defaultModel(): ChatModel {
  return process.env.OPENAI_API_KEY ? new OpenAIChatModel({}) : scriptedModel();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
