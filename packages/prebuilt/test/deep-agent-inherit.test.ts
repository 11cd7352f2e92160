import {
  type AgentMiddleware,
  type ChatModel,
  MemorySessionService,
  type Message,
  messageText,
  Runner,
} from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, test } from 'vitest';
import { createDeepAgent, type DeepAgentOptions } from '../src/index.js';

/** The parent delegates once to the general-purpose sub-agent, which answers at once. */
function delegating(): ScriptedChatModel {
  return new ScriptedChatModel((messages, options) => {
    const isSub = !(options.tools ?? []).some((t) => t.name === 'task');
    const last = messages.at(-1) as Message;
    if (isSub) return 'Sub-agent done.';
    if (last.role === 'user')
      return {
        toolCalls: [{ name: 'task', arguments: { subagent_type: 'general-purpose', description: 'Do it' } }],
      };
    return 'All done.';
  });
}

async function run(options: Partial<DeepAgentOptions>, message = 'Please do the work.') {
  const model = delegating();
  const agent = createDeepAgent({ model: model as ChatModel, ...options });
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
  await drain(runner.run({ userId: 'u', sessionId: 's', message }));
  const isSub = (c: ScriptedChatModel['calls'][number]) =>
    !(c.options.tools ?? []).some((t) => t.name === 'task');
  return {
    parent: model.calls.filter((c) => !isSub(c)).map((c) => messageText(c.messages[0]!)),
    sub: model.calls.filter(isSub).map((c) => messageText(c.messages[0]!)),
  };
}

describe('the general-purpose sub-agent inherits the parent’s middleware', () => {
  test('user middleware runs in the parent and in the sub-agent by default', async () => {
    const seen: string[] = [];
    const spy: AgentMiddleware = { beforeModel: (_request, ctx) => void seen.push(ctx.agentName) };
    await run({ instruction: 'Be exact.', middleware: [spy] });
    expect(seen).toEqual(['deep_agent', 'general-purpose', 'deep_agent']);
  });

  test('subAgentMiddleware: none gives it only the plain instruction; a list replaces the middleware', async () => {
    const none = await run({ instruction: 'Be exact.', subAgentMiddleware: 'none' });
    expect(none.sub).toEqual(['Be exact.']);
    const seen: string[] = [];
    const own: AgentMiddleware = { beforeModel: (_request, ctx) => void seen.push(ctx.agentName) };
    await run({ instruction: 'Be exact.', subAgentMiddleware: [own] });
    expect(seen).toEqual(['general-purpose']);
  });
});

describe('the deep agent’s prompt in English and Chinese', () => {
  test('covers planning, files, delegation and verification in depth', async () => {
    const { parent } = await run({});
    for (const heading of ['## Planning', '## Files', '## Sub-agents', '## Verification'])
      expect(parent[0]).toContain(heading);
    expect(parent[0]).toContain('Keep exactly one item in_progress');
    expect(parent[0]).toContain('fresh context');
    expect(parent[0]).toContain('run the tests or commands');
  });

  test('is written in Chinese when the user writes Chinese, or when asked', async () => {
    const auto = await run({}, '请帮我整理一下这份销售报告。');
    for (const heading of ['## 规划', '## 文件', '## 子代理', '## 验证'])
      expect(auto.parent[0]).toContain(heading);
    expect(auto.parent[0]).not.toContain('## Planning');
    const forced = await run({ language: 'zh' }, 'Please do the work.');
    expect(forced.parent[0]).toContain('## 验证');
    const english = await run({ language: 'en' }, '请帮我整理一下这份销售报告。');
    expect(english.parent[0]).toContain('## Verification');
  });
});
