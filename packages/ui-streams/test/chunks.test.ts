// Weft events the scripted agents above do not produce (streamed reasoning, custom events, a question
// interrupt, a failed run), written by toUIMessageChunks and read back by the ai package's own
// readUIMessageStream.
import type { AgentEvent } from '@weft/adk';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { expect, it } from 'vitest';
import { toUIMessageChunks, uiMessageStreamResponse } from '../src/ai-sdk/index.js';

function event(init: Partial<AgentEvent>): AgentEvent {
  return {
    id: `e${Math.random()}`,
    invocationId: 'inv_1',
    author: 'agent',
    timestamp: 0,
    actions: {},
    ...init,
  };
}

async function* from(events: AgentEvent[]): AsyncGenerator<AgentEvent> {
  yield* events;
}

/** The chunks as the client reads them: the route's response parsed by DefaultChatTransport, then by readUIMessageStream. */
async function lastMessage(events: AgentEvent[] | AsyncIterable<AgentEvent>, onError?: (e: unknown) => void) {
  const response = uiMessageStreamResponse(toUIMessageChunks(Array.isArray(events) ? from(events) : events));
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  const transport = new DefaultChatTransport({
    api: 'http://localhost/api/chat',
    fetch: async () => response,
  });
  const chunks = await transport.sendMessages({
    chatId: 'c1',
    messages: [],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: chunks, ...(onError ? { onError } : {}) }))
    last = message;
  return last;
}

it('streams reasoning before text and writes custom events as data parts', async () => {
  const message = await lastMessage([
    event({ partial: true, chunk: { reasoningDeltas: [{ index: 0, text: 'The user ' }] } }),
    event({ partial: true, chunk: { reasoningDeltas: [{ index: 0, text: 'greets me.' }] } }),
    event({ partial: true, chunk: { text: 'Hel' } }),
    event({ partial: true, chunk: { text: 'lo!' } }),
    event({
      message: {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'The user greets me.' },
          { type: 'text', text: 'Hello!' },
        ],
        finishReason: 'stop',
      },
    }),
    event({ custom: { type: 'progress', data: { done: 1, of: 2 } } }),
  ]);
  expect(message?.parts).toEqual([
    { type: 'step-start' },
    expect.objectContaining({ type: 'reasoning', text: 'The user greets me.', state: 'done' }),
    { type: 'text', text: 'Hello!', state: 'done' },
    { type: 'data-progress', data: { done: 1, of: 2 } },
  ]);
});

it('writes a reply that was not streamed whole, and a question interrupt as a data-interrupt part', async () => {
  const message = await lastMessage([
    event({
      message: {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Ask first.' },
          { type: 'text', text: 'One question:' },
        ],
      },
    }),
    event({ interrupts: [{ id: 'int_1', value: { question: 'Which account?' }, path: ['agent'] }] }),
  ]);
  expect(message?.parts).toEqual([
    { type: 'step-start' },
    expect.objectContaining({ type: 'reasoning', text: 'Ask first.', state: 'done' }),
    { type: 'text', text: 'One question:', state: 'done' },
    {
      type: 'data-interrupt',
      id: 'int_1',
      data: { id: 'int_1', value: { question: 'Which account?' }, path: ['agent'] },
    },
  ]);
});

it('reports a failed run as an error chunk, closing the open text part', async () => {
  const errors: unknown[] = [];
  async function* failing(): AsyncGenerator<AgentEvent> {
    yield event({ partial: true, chunk: { text: 'Half an ans' } });
    throw new Error('model "m" failed: 503');
  }
  const message = await lastMessage(failing(), (e) => errors.push(e));
  expect(errors).toEqual([new Error('model "m" failed: 503')]);
  expect(message?.parts).toEqual([
    { type: 'step-start' },
    { type: 'text', text: 'Half an ans', state: 'done' },
  ]);
});

it('reports an error event with its code', async () => {
  const seen: string[] = [];
  for await (const chunk of toUIMessageChunks(
    from([event({ error: { code: 'MODEL_ERROR', message: 'quota' } })]),
  ))
    seen.push(chunk.type === 'error' ? `error:${chunk.errorText}` : chunk.type);
  expect(seen).toEqual(['start', 'error:MODEL_ERROR: quota']);
});
