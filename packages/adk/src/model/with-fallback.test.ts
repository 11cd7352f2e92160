import { abortError } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors/model-error.js';
import type { MessageChunk } from '../message/message-chunk.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import type { ChatModel } from './chat-model.js';
import { withFallback } from './with-fallback.js';

async function collectText(stream: AsyncIterable<MessageChunk>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.text ?? '';
  return text;
}

describe('withFallback', () => {
  it('answers with the first model when it succeeds', async () => {
    const fallback = new ScriptedChatModel(['fallback']);
    const model = withFallback(new ScriptedChatModel(['primary']), fallback);
    await expect(model.generate([])).resolves.toMatchObject({ content: 'primary' });
    expect(fallback.calls).toHaveLength(0);
  });

  it('asks the fallback model with the same messages and options when the first fails', async () => {
    const fallback = new ScriptedChatModel(['fallback']);
    const model = withFallback(new ScriptedChatModel([new Error('down')], { name: 'big' }), fallback);
    await expect(model.generate([], { temperature: 0.5 })).resolves.toMatchObject({ content: 'fallback' });
    expect(fallback.calls[0]?.options.temperature).toBe(0.5);
    expect(model.name).toContain('big');
  });

  it('does not fall back on an abort or when shouldFallback says no', async () => {
    const aborted = abortError('stop');
    const fallback = new ScriptedChatModel(['fallback', 'fallback']);
    await expect(withFallback(new ScriptedChatModel([aborted]), fallback).generate([])).rejects.toBe(aborted);
    const badRequest = new ModelError('bad', { status: 400, retryable: false });
    const picky = withFallback(new ScriptedChatModel([badRequest]), fallback, {
      shouldFallback: (error) => error instanceof ModelError && error.retryable,
    });
    await expect(picky.generate([])).rejects.toBe(badRequest);
    expect(fallback.calls).toHaveLength(0);
  });

  it('falls back for a stream that fails before its first chunk, not after', async () => {
    const fallback = new ScriptedChatModel(['from fallback']);
    await expect(
      collectText(withFallback(new ScriptedChatModel([new Error('x')]), fallback).stream([])),
    ).resolves.toBe('from fallback');
    const halfway: ChatModel = {
      name: 'half',
      generate: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield { text: 'par' };
        throw new Error('cut off');
      },
    };
    const second = new ScriptedChatModel(['unused']);
    await expect(collectText(withFallback(halfway, second).stream([]))).rejects.toThrow('cut off');
    expect(second.calls).toHaveLength(0);
  });
});
