// useChat's own client (`Chat` from @ai-sdk/react over `DefaultChatTransport`) drives a Weft agent
// through aiSdkHandler on a loopback server: streamed text, tool calls and results, tool approval.
import { Chat } from '@ai-sdk/react';
import { ChatModelAgent, MemorySessionService, Runner, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkHandler } from '../src/ai-sdk/index.js';
import { type Loopback, listen } from './loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function chatAgainst(url: string) {
  let settle: (() => void) | undefined;
  let failure: Error | undefined;
  const chat = new Chat<UIMessage>({
    transport: new DefaultChatTransport({ api: `${url}/api/chat` }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: () => settle?.(),
    onError: (error) => {
      failure = error;
      settle?.();
    },
  });
  /** Resolves when the next response has been read to its end. */
  const finished = () =>
    new Promise<void>((resolve, reject) => {
      settle = () => (failure ? reject(failure) : resolve());
    });
  return { chat, finished };
}

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

it('streams text, a tool call and its result into useChat messages', async () => {
  const model = new ScriptedChatModel(
    [
      { text: 'Let me add.', toolCalls: [{ id: 'call_1', name: 'add', arguments: { a: 1, b: 2 } }] },
      'It is 3.',
    ],
    { chunkSize: 4 },
  );
  const runner = new Runner({
    agent: new ChatModelAgent({ name: 'calc', model, tools: [add] }),
    sessionService: new MemorySessionService(),
  });
  server = await listen(aiSdkHandler(runner));
  const { chat, finished } = chatAgainst(server.url);
  const done = finished();
  await chat.sendMessage({ text: 'What is 1 + 2?' });
  await done;
  expect(chat.status).toBe('ready');
  const reply = chat.messages[1] as UIMessage;
  expect(reply.role).toBe('assistant');
  expect(reply.parts).toEqual([
    { type: 'step-start' },
    { type: 'text', text: 'Let me add.', state: 'done' },
    expect.objectContaining({
      type: 'tool-add',
      toolCallId: 'call_1',
      state: 'output-available',
      input: { a: 1, b: 2 },
      output: 3,
    }),
    { type: 'step-start' },
    { type: 'text', text: 'It is 3.', state: 'done' },
  ]);
  // The chat id is the session id: the next message continues the same Weft session.
  const session = await runner.sessionService.get({
    appName: 'calc',
    userId: 'anonymous',
    sessionId: chat.id,
  });
  expect(session?.events.filter((e) => e.message?.role === 'user')).toHaveLength(1);
});

it('asks for tool approval and resumes the run with the answers useChat sends', async () => {
  const transfer = tool({
    name: 'transfer',
    description: 'Sends money',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ to, amount }) => `sent ${amount} to ${to}`,
  });
  const model = new ScriptedChatModel([
    {
      toolCalls: [
        { id: 'call_a', name: 'transfer', arguments: { to: 'ann', amount: 5 } },
        { id: 'call_b', name: 'transfer', arguments: { to: 'bob', amount: 500 } },
      ],
    },
    'Sent 5 to Ann; the transfer to Bob was refused.',
  ]);
  const runner = new Runner({
    agent: new ChatModelAgent({ name: 'bank', model, tools: [transfer] }),
    sessionService: new MemorySessionService(),
  });
  server = await listen(aiSdkHandler(runner));
  const { chat, finished } = chatAgainst(server.url);
  let done = finished();
  await chat.sendMessage({ text: 'Pay Ann 5 and Bob 500.' });
  await done;
  const asked = (chat.messages[1] as UIMessage).parts.filter((p) => p.type === 'tool-transfer');
  expect(asked.map((p) => 'state' in p && p.state)).toEqual(['approval-requested', 'approval-requested']);
  const approvalOf = (p: (typeof asked)[number]) => ('approval' in p && p.approval ? p.approval.id : '');
  done = finished();
  await chat.addToolApprovalResponse({ id: approvalOf(asked[0] as (typeof asked)[number]), approved: true });
  await chat.addToolApprovalResponse({
    id: approvalOf(asked[1] as (typeof asked)[number]),
    approved: false,
    reason: 'too much',
  });
  await done;
  const reply = chat.messages[1] as UIMessage;
  expect(chat.messages).toHaveLength(2);
  const calls = reply.parts.filter((p) => p.type === 'tool-transfer');
  expect(calls).toEqual([
    expect.objectContaining({ toolCallId: 'call_a', state: 'output-available', output: 'sent 5 to ann' }),
    expect.objectContaining({ toolCallId: 'call_b', state: 'output-denied' }),
  ]);
  expect(reply.parts.at(-1)).toEqual({
    type: 'text',
    text: 'Sent 5 to Ann; the transfer to Bob was refused.',
    state: 'done',
  });
  // Weft ran only the approved call and told the model why the other was refused.
  const session = await runner.sessionService.get({
    appName: 'bank',
    userId: 'anonymous',
    sessionId: chat.id,
  });
  const results = session?.events.flatMap((e) => (e.message?.role === 'tool' ? [e.message.content] : []));
  expect(results).toEqual(['sent 5 to ann', 'The user rejected this call: too much']);
});
