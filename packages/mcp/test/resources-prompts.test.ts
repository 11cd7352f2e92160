import { ChatModelAgent, MemorySessionService, messageText, Runner } from '@weft/adk';
import { drain, ScriptedChatModel } from '@weft/adk/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { mcpResourceInstruction, mcpToolset } from '../src/index.js';
import { everythingServer } from './servers.js';

const toolset = mcpToolset({ ...everythingServer(), name: 'everything', include: [] });
afterAll(() => toolset.close());
const architecture = 'demo://resource/static/document/architecture.md';

describe('resources and prompts of server-everything', () => {
  test('lists and reads resources', async () => {
    const resources = await toolset.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: architecture, mimeType: 'text/markdown' }),
    );
    const [contents] = await toolset.readResource(architecture);
    expect(contents).toMatchObject({
      uri: architecture,
      mimeType: 'text/markdown',
      text: expect.any(String),
    });
    expect(contents!.text!.length).toBeGreaterThan(100);
    await expect(toolset.readResource('demo://nowhere')).rejects.toMatchObject({
      code: 'REQUEST_FAILED',
      message: expect.stringMatching(/resources\/read of "demo:\/\/nowhere" failed/),
    });
  });

  test('lists prompts and gets one as Weft messages', async () => {
    const prompts = await toolset.listPrompts();
    const args = prompts.find((p) => p.name === 'args-prompt');
    expect(args?.arguments?.map((a) => a.name)).toEqual(['city', 'state']);
    const messages = await toolset.getPrompt('args-prompt', { city: 'Oslo' });
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('user');
    expect(messageText(messages[0]!)).toContain('Oslo');
  });

  test('mcpResourceInstruction adds a resource to the instruction of every model call', async () => {
    const model = new ScriptedChatModel(['noted']);
    const agent = new ChatModelAgent({
      name: 'reader',
      instruction: 'Answer from the documents.',
      model,
      middleware: [mcpResourceInstruction({ toolset, uris: [architecture], title: 'Documents' })],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'What is the architecture?' }));
    const sent = model.calls[0]!.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(messageText(sent[0]!)).toBe('Answer from the documents.');
    const [contents] = await toolset.readResource(architecture);
    expect(messageText(sent[1]!)).toBe(`## Documents\n\n### ${architecture}\n${contents!.text}`);
  });
});
