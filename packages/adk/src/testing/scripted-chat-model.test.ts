import { describe, expect, it } from 'vitest';
import { AdkError } from '../errors/adk-error.js';
import type { Message } from '../message/message.js';
import { concatMessageChunks, type MessageChunk } from '../message/message-chunk.js';
import { userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { ScriptedChatModel } from './scripted-chat-model.js';

async function collect(stream: AsyncIterable<MessageChunk>): Promise<MessageChunk[]> {
  const chunks: MessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('ScriptedChatModel', () => {
  it('replays the script in order: text, tool calls (with generated ids), assistant messages', async () => {
    const model = new ScriptedChatModel([
      'Hello!',
      { text: 'Adding.', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      { role: 'assistant', content: 'Done.', id: 'final' },
    ]);
    const first = await model.generate([userMessage('hi')]);
    expect(first.content).toBe('Hello!');
    const second = await model.generate([userMessage('add')]);
    expect(second.toolCalls).toEqual([{ id: 'call_scripted_1_0', name: 'add', arguments: '{"a":1,"b":2}' }]);
    const third = await model.generate([userMessage('and?')]);
    expect(third).toMatchObject({ id: 'final', content: 'Done.' });
  });
  it('names default tool-call ids after the model, so two scripted models never repeat each other', async () => {
    const turn = { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] };
    const planner = await new ScriptedChatModel([turn], { name: 'planner' }).generate([userMessage('x')]);
    const worker = await new ScriptedChatModel([turn], { name: 'worker' }).generate([userMessage('x')]);
    expect(planner.toolCalls?.[0]?.id).toBe('call_planner_0_0');
    expect(worker.toolCalls?.[0]?.id).toBe('call_worker_0_0');
  });

  it('estimates usage when the script gives none, and keeps scripted usage', async () => {
    const usage = { inputTokens: 5, outputTokens: 6, totalTokens: 11 };
    const model = new ScriptedChatModel(['12345678', { text: 'x', usage }]);
    expect((await model.generate([userMessage('abcd')])).usage).toEqual({
      inputTokens: 1,
      outputTokens: 2,
      totalTokens: 3,
    });
    expect((await model.generate([userMessage('abcd')])).usage).toEqual(usage);
  });

  it('throws scripted errors', async () => {
    const model = new ScriptedChatModel([new Error('provider down'), 'ok']);
    await expect(model.generate([userMessage('a')])).rejects.toThrow('provider down');
    await expect(model.generate([userMessage('a')])).resolves.toMatchObject({ content: 'ok' });
  });

  it('fails with SCRIPT_EXHAUSTED naming the call index when the script runs out', async () => {
    const model = new ScriptedChatModel(['only one'], { name: 'demo' });
    await model.generate([userMessage('a')]);
    const error = await model.generate([userMessage('b')]).catch((caught: unknown) => caught);
    expect(AdkError.isInstance(error) && error.code).toBe('SCRIPT_EXHAUSTED');
    expect((error as Error).message).toMatch(/"demo".*call #1.*1 response/);
  });

  it('answers from a function of the conversation, options and call index', async () => {
    const model = new ScriptedChatModel((messages, options, callIndex) => {
      const last = messages.at(-1);
      return `${callIndex}:${last === undefined ? '' : messageText(last)}:${options.temperature ?? '-'}`;
    });
    expect((await model.generate([userMessage('x')], { temperature: 0 })).content).toBe('0:x:0');
    expect((await model.generate([userMessage('y')])).content).toBe('1:y:-');
  });

  it('records every call with a copy of its messages and its options', async () => {
    const model = new ScriptedChatModel(['a', 'b']);
    const history: Message[] = [userMessage('first')];
    const tools = [{ name: 'add', description: 'adds', parameters: { type: 'object' } }];
    await model.generate(history, { tools });
    history.push(userMessage('second'));
    await collect(model.stream(history));
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]).toMatchObject({
      method: 'generate',
      messages: [userMessage('first')],
      options: { tools },
    });
    expect(model.calls[1]?.method).toBe('stream');
    expect(model.calls[1]?.messages).toHaveLength(2);
  });

  it('streams text word by word (or by chunkSize), tool calls in argument fragments, then usage', async () => {
    const model = new ScriptedChatModel([
      { text: 'one two three', toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":1}' }] },
      'abcdefg',
    ]);
    const chunks = await collect(model.stream([userMessage('go')]));
    expect(chunks.filter((chunk) => chunk.text !== undefined).map((chunk) => chunk.text)).toEqual([
      'one ',
      'two ',
      'three',
    ]);
    const deltas = chunks.flatMap((chunk) => chunk.toolCallDeltas ?? []);
    expect(deltas).toEqual([
      { index: 0, id: 'c1', name: 'add', arguments: '{"a"' },
      { index: 0, arguments: ':1}' },
    ]);
    expect(chunks.at(-1)?.usage).toBeDefined();
    expect(concatMessageChunks(chunks).toolCalls).toEqual([{ id: 'c1', name: 'add', arguments: '{"a":1}' }]);

    const sized = new ScriptedChatModel(['abcdefg'], { chunkSize: 3 });
    const texts = (await collect(sized.stream([]))).map((chunk) => chunk.text).filter(Boolean);
    expect(texts).toEqual(['abc', 'def', 'g']);
  });

  it('honours the abort signal before a call and between streamed chunks', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const model = new ScriptedChatModel(['a b c', 'x y z'], { chunkDelayMs: 1 });
    await expect(model.generate([], { signal: aborted.signal })).rejects.toMatchObject({ code: 'ABORTED' });

    const controller = new AbortController();
    const seen: MessageChunk[] = [];
    const consume = async () => {
      for await (const chunk of model.stream([], { signal: controller.signal })) {
        seen.push(chunk);
        controller.abort();
      }
    };
    await expect(consume()).rejects.toMatchObject({ code: 'ABORTED' });
    expect(seen).toHaveLength(1);
  });

  it('awaits beforeChunk before each streamed chunk, so a test can hold a stream mid-way', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = new ScriptedChatModel(['one two three four'], {
      beforeChunk: (_chunk, index) => (index === 2 ? held : undefined),
    });
    const seen: string[] = [];
    const iterator = model.stream([])[Symbol.asyncIterator]();
    for (let i = 0; i < 2; i++) seen.push((await iterator.next()).value?.text ?? '');
    const third = iterator.next();
    let yielded = false;
    void third.then(() => {
      yielded = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(yielded).toBe(false);
    expect(seen.join('')).toBe('one two ');
    release();
    expect((await third).value?.text).toBe('three ');
  });
});
