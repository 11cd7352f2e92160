import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatModel, MemorySessionService, type Message, messageText, Runner, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createDeepAgent, LocalBackend, LocalShell, MemoryBackend, TODOS_KEY } from '../src/index.js';
import { drain, trace } from './helpers.js';

const offered = (model: ScriptedChatModel, index: number) =>
  (model.calls[index]?.options.tools ?? []).map((t) => t.name);
const runnerFor = (agent: ReturnType<typeof createDeepAgent>) =>
  new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });

describe('createDeepAgent', () => {
  test('happy path: plans with todos, reads and writes files; todos are session state shown as events and in the prompt', async () => {
    const backend = new MemoryBackend({ '/spec.md': 'Report on Weft.' });
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          {
            name: 'write_todos',
            arguments: {
              todos: [
                { content: 'Read the spec', status: 'in_progress' },
                { content: 'Write the report', status: 'pending' },
              ],
            },
          },
        ],
      },
      { toolCalls: [{ name: 'read_file', arguments: { path: '/spec.md' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: '/report.md', content: '# Weft' } }] },
      'Report written to /report.md.',
    ]);
    const agent = createDeepAgent({ model, instruction: 'You write reports.', backend });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: false });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Write the report' }));
    expect(trace(events)).toEqual([
      'user:user',
      'deep_agent:calls(write_todos)',
      'deep_agent:result(write_todos)',
      'deep_agent:calls(read_file)',
      'deep_agent:result(read_file)',
      'deep_agent:calls(write_file)',
      'deep_agent:result(write_file)',
      'deep_agent:assistant',
      'deep_agent:done',
    ]);
    expect(events[2]?.actions.stateDelta?.[TODOS_KEY]).toEqual([
      { content: 'Read the spec', status: 'in_progress' },
      { content: 'Write the report', status: 'pending' },
    ]);
    const session = await sessions.get({ appName: 'deep_agent', userId: 'u', sessionId: 's' });
    expect(session?.state[TODOS_KEY]).toHaveLength(2);
    expect(backend.toJSON()['/report.md']).toBe('# Weft');
    const system = (call: number) => messageText(model.calls[call]?.messages[0] as Message);
    expect(system(0)).toMatch(/^You write reports\.\n\n## Planning\n/);
    expect(system(0)).not.toContain('## Your todo list');
    expect(system(1)).toContain('## Your todo list\n[~] Read the spec\n[ ] Write the report');
    expect(offered(model, 0)).toEqual([
      'write_todos',
      'ls',
      'glob',
      'grep',
      'read_file',
      'write_file',
      'edit_file',
      'task',
    ]);
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(agent.graph.toMermaid());
  });

  test('execute is offered only when a shell is given explicitly', async () => {
    const without = new ScriptedChatModel(['ok']);
    await createDeepAgent({ model: without }).graph.invoke({ input: 'hi' });
    expect(offered(without, 0)).not.toContain('execute');
    const root = await mkdtemp(join(tmpdir(), 'weft-deep-shell-'));
    try {
      const model = new ScriptedChatModel([
        { toolCalls: [{ name: 'execute', arguments: { command: 'echo built' } }] },
        'Built.',
      ]);
      const state = await createDeepAgent({ model, shell: new LocalShell({ root }) }).graph.invoke({
        input: 'build',
      });
      expect(offered(model, 0)).toContain('execute');
      expect(messageText(state.messages[2] as Message)).toBe('exit code 0\nstdout:\nbuilt\n');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test('error path: a path escape is refused by the local backend and the model reads why', async () => {
    const base = await mkdtemp(join(tmpdir(), 'weft-deep-'));
    try {
      await mkdir(join(base, 'ws'));
      await writeFile(join(base, 'secret.txt'), 'top secret');
      const model = new ScriptedChatModel([
        { toolCalls: [{ name: 'read_file', arguments: { path: '../secret.txt' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: '../secret.txt', content: 'pwned' } }] },
        'I cannot access files outside the workspace.',
      ]);
      const agent = createDeepAgent({ model, backend: new LocalBackend({ root: join(base, 'ws') }) });
      const state = await agent.graph.invoke({ input: 'read ../secret.txt' });
      const results = state.messages.filter((m) => m.role === 'tool');
      expect(results.map((m) => m.status)).toEqual(['error', 'error']);
      expect(messageText(results[0] as Message)).toContain('".." is not allowed');
      expect(results.map(messageText).join()).not.toContain('top secret');
      expect(await readFile(join(base, 'secret.txt'), 'utf8')).toBe('top secret');
      expect(state.output).toBe('I cannot access files outside the workspace.');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  test('a large tool result is offloaded to the backend and read back with read_file', async () => {
    const dump = tool({
      name: 'dump_logs',
      description: 'Dumps the logs',
      parameters: z.object({}),
      execute: () => Array.from({ length: 400 }, (_, i) => `log line ${i}`).join('\n'),
    });
    const backend = new MemoryBackend();
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: 'dump1', name: 'dump_logs' }] },
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: '/large_results/dump1.txt', offset: 100, limit: 2 } },
        ],
      },
      'Line 101 says "log line 100".',
    ]);
    const agent = createDeepAgent({ model, backend, tools: [dump], largeResultChars: 1_000 });
    await agent.graph.invoke({ input: 'check the logs' });
    const pointer = messageText(model.calls[1]?.messages.at(-1) as Message);
    expect(pointer).toContain('It was saved to /large_results/dump1.txt');
    expect(pointer.length).toBeLessThan(600);
    expect(messageText(model.calls[2]?.messages.at(-1) as Message)).toBe(
      '   101\tlog line 100\n   102\tlog line 101\n[… 298 more lines; read on with offset=102]',
    );
  });

  test('pause and resume: an approved write waits for a person, then runs', async () => {
    const backend = new MemoryBackend();
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'write_file', arguments: { path: '/out.txt', content: 'hello' } }] },
      'Saved.',
    ]);
    const runner = runnerFor(createDeepAgent({ model, backend, approve: ['write_file'] }));
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'save hello' }));
    expect(trace(paused)).toEqual(['user:user', 'deep_agent:calls(write_file)', 'deep_agent:pause']);
    expect(backend.toJSON()).toEqual({});
    const resumed = await drain(runner.resume({ userId: 'u', sessionId: 's', decisions: true }));
    expect(trace(resumed)).toEqual([
      'deep_agent:result(write_file)',
      'deep_agent:assistant',
      'deep_agent:done',
    ]);
    expect(backend.toJSON()).toEqual({ '/out.txt': 'hello' });
  });
});

describe('the task tool', () => {
  test('runs a named sub-agent in isolation and returns its output', async () => {
    const researcherModel = new ScriptedChatModel(['Weft was started in 2025.']);
    const researcher = createDeepAgent({
      name: 'researcher',
      description: 'Finds facts',
      model: researcherModel,
      generalPurpose: false,
    });
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'task', arguments: { subagent_type: 'researcher', description: 'When was Weft started?' } },
        ],
      },
      'It was started in 2025.',
    ]);
    const agent = createDeepAgent({ model, subAgents: [researcher], generalPurpose: false });
    const state = await agent.graph.invoke({ input: 'Tell me about Weft' });
    const sent = researcherModel.calls[0]?.messages ?? [];
    expect(sent.filter((m) => m.role !== 'system').map(messageText)).toEqual(['When was Weft started?']);
    expect(messageText(state.messages[2] as Message)).toBe('Weft was started in 2025.');
    const spec = model.calls[0]?.options.tools?.find((t) => t.name === 'task');
    expect(spec?.description).toContain('- researcher: Finds facts');
    expect(spec?.parameters).toMatchObject({ properties: { subagent_type: { enum: ['researcher'] } } });
  });

  test('the general-purpose sub-agent has the parent model, its rendered instruction and tools (no task, no todos)', async () => {
    const backend = new MemoryBackend({ '/facts.md': 'Weft is a graph engine.' });
    const model: ChatModel = new ScriptedChatModel((messages, options) => {
      const isSub = !(options.tools ?? []).some((t) => t.name === 'task');
      const last = messages.at(-1) as Message;
      if (isSub && last.role === 'user')
        return { toolCalls: [{ name: 'read_file', arguments: { path: '/facts.md' } }] };
      if (isSub) return `Found: ${messageText(last).trim()}`;
      if (last.role === 'user')
        return {
          toolCalls: [
            { name: 'task', arguments: { subagent_type: 'general-purpose', description: 'Read /facts.md' } },
          ],
        };
      return `Done: ${messageText(last)}`;
    });
    const agent = createDeepAgent({ model, backend, instruction: 'You help {user:name}.' });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    await drain(
      runner.run({ userId: 'u', sessionId: 's', message: 'What is Weft?', state: { 'user:name': 'Ada' } }),
    );
    const calls = (model as ScriptedChatModel).calls;
    const sub = calls.filter((c) => !(c.options.tools ?? []).some((t) => t.name === 'task'));
    expect(sub).toHaveLength(2);
    // The sub-agent inherits the parent's prompt sections, without the parts it has no tools for.
    const subPrompt = messageText(sub[0]!.messages[0]!);
    expect(subPrompt.startsWith('You help Ada.')).toBe(true);
    expect(subPrompt).toContain('## Files');
    expect(subPrompt).toContain('## Verification');
    expect(subPrompt).not.toContain('## Sub-agents');
    expect(subPrompt).not.toContain('## Planning');
    expect((sub[0]?.options.tools ?? []).map((t) => t.name)).toEqual([
      'ls',
      'glob',
      'grep',
      'read_file',
      'write_file',
      'edit_file',
    ]);
    expect(messageText(calls.at(-1)?.messages.at(-1) as Message)).toBe('Found: 1\tWeft is a graph engine.');
  });

  test('a pause inside a sub-agent pauses the parent; resuming continues inside it, and its events are in the parent stream', async () => {
    const deployed: string[] = [];
    const gated = tool({
      name: 'deploy',
      description: 'Deploys',
      parameters: z.object({ env: z.string() }),
      needsApproval: true,
      execute: ({ env }) => {
        deployed.push(env);
        return `deployed to ${env}`;
      },
    });
    const deployerModel = new ScriptedChatModel([
      { toolCalls: [{ id: 'd1', name: 'deploy', arguments: { env: 'prod' } }] },
      'Deployed to prod.',
    ]);
    const deployer = createDeepAgent({
      name: 'deployer',
      description: 'Deploys builds',
      model: deployerModel,
      tools: [gated],
      generalPurpose: false,
    });
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { id: 'p1', name: 'task', arguments: { subagent_type: 'deployer', description: 'deploy to prod' } },
        ],
      },
      'The deployer says: Deployed to prod.',
    ]);
    const runner = runnerFor(createDeepAgent({ model, subAgents: [deployer], generalPurpose: false }));
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'ship it' }));
    expect(trace(paused)).toEqual([
      'user:user',
      'deep_agent:calls(task)',
      'deployer:calls(deploy)',
      'deep_agent:pause',
    ]);
    expect(paused[2]?.branch).toBe('deep_agent.deployer');
    const pause = paused.at(-1)?.interrupts?.[0];
    expect(pause?.value).toMatchObject({
      type: 'tool-approval',
      agent: 'deployer',
      calls: [{ name: 'deploy' }],
    });
    expect(deployed).toEqual([]);
    const resumed = await drain(
      runner.resume({ userId: 'u', sessionId: 's', decisions: { [pause?.id as string]: true } }),
    );
    expect(trace(resumed)).toEqual([
      'deployer:result(deploy)',
      'deployer:assistant',
      'deep_agent:result(task)',
      'deep_agent:assistant',
      'deep_agent:done',
    ]);
    expect(deployed).toEqual(['prod']);
    // Nothing ran twice: the sub-agent's first model call is not repeated on resume.
    expect([model.calls.length, deployerModel.calls.length]).toEqual([2, 2]);
    expect(messageText(resumed[2]?.message as Message)).toBe('Deployed to prod.');
  });
});
