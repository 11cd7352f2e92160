import { describe, expect, it } from 'vitest';
import type { MessageChunk } from '../message/message-chunk.js';
import { detectToolCalls, streamUntilToolCall } from './detect-tool-calls.js';

/** A stream that counts how far it was read and whether it was closed. */
function trackedStream(chunks: MessageChunk[]) {
  const state = { read: 0, closed: false };
  async function* generate(): AsyncGenerator<MessageChunk> {
    try {
      for (const chunk of chunks) {
        state.read++;
        yield chunk;
      }
    } finally {
      state.closed = true;
    }
  }
  return { stream: generate(), state };
}

const textThenTool: MessageChunk[] = [
  { text: 'Let me ' },
  { text: 'look that up.' },
  { toolCallDeltas: [{ index: 0, id: 'c1', name: 'search', arguments: '{"q":' }] },
  { toolCallDeltas: [{ index: 0, arguments: '"x"}' }] },
  { usage: { inputTokens: 1, outputTokens: 2 } },
];

describe('streamUntilToolCall', () => {
  it('finds tool calls that come after streamed text, and stops reading at the first one', async () => {
    const { stream, state } = trackedStream(textThenTool);
    const detection = await streamUntilToolCall(stream);
    expect(detection.hasToolCalls).toBe(true);
    expect(state.read).toBe(3);
    expect(detection.readChunks).toHaveLength(3);
    const message = await detection.message();
    expect(message.content).toBe('Let me look that up.');
    expect(message.toolCalls).toEqual([{ id: 'c1', name: 'search', arguments: '{"q":"x"}' }]);
    expect(message.usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
  });

  it('reads to the end when there is no tool call', async () => {
    const { stream, state } = trackedStream([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const detection = await streamUntilToolCall(stream);
    expect(detection.hasToolCalls).toBe(false);
    expect(state.read).toBe(3);
    expect((await detection.message()).content).toBe('abc');
  });

  it('replays every chunk from the first, then the rest of the stream', async () => {
    const { stream } = trackedStream(textThenTool);
    const detection = await streamUntilToolCall(stream);
    const replayed: MessageChunk[] = [];
    for await (const chunk of detection.chunks) replayed.push(chunk);
    expect(replayed).toEqual(textThenTool);
    expect((await detection.message()).toolCalls).toHaveLength(1);
  });

  it('closes the source when the replay is left early', async () => {
    const { stream, state } = trackedStream(textThenTool);
    const detection = await streamUntilToolCall(stream);
    for await (const _chunk of detection.chunks) break;
    expect(state.closed).toBe(true);
    expect(state.read).toBe(3);
  });

  it('handles an empty stream', async () => {
    const detection = await streamUntilToolCall(trackedStream([]).stream);
    expect(detection.hasToolCalls).toBe(false);
    expect(await detection.message()).toEqual({ role: 'assistant', content: '' });
  });
});

describe('detectToolCalls', () => {
  it('returns the decision with the whole message', async () => {
    const { hasToolCalls, message } = await detectToolCalls(trackedStream(textThenTool).stream);
    expect(hasToolCalls).toBe(true);
    expect(message.content).toBe('Let me look that up.');
    const plain = await detectToolCalls(trackedStream([{ text: 'hi' }]).stream);
    expect(plain).toEqual({ hasToolCalls: false, message: { role: 'assistant', content: 'hi' } });
  });
});
