import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../agent/chat-model-agent.js';
import { AdkError } from '../errors/adk-error.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import { modelRegistry, resolveModel } from './model-registry.js';

function registry() {
  const made: string[] = [];
  const models = modelRegistry({
    scripted: (id) => {
      made.push(id);
      return new ScriptedChatModel([`answer of ${id}`], { name: `scripted:${id}` });
    },
    other: (id) => new ScriptedChatModel([id]),
  });
  return { models, made };
}

describe('modelRegistry', () => {
  it('resolves provider:model-id with the provider factory, once per string', () => {
    const { models, made } = registry();
    const model = models.resolve('scripted:big-1');
    expect(model.name).toBe('scripted:big-1');
    expect(models.resolve('scripted:big-1')).toBe(model);
    expect(made).toEqual(['big-1']);
    expect(models.resolve('scripted:vendor/model:tag').name).toBe('scripted:vendor/model:tag');
    expect(models.providers).toEqual(['other', 'scripted']);
  });

  it('names the unknown provider and lists the known ones; rejects a string without provider', () => {
    const { models } = registry();
    expect(() => models.resolve('anthropic:claude')).toThrow(AdkError);
    expect(() => models.resolve('anthropic:claude')).toThrow(
      /no provider "anthropic".*known providers: other, scripted/,
    );
    expect(() => models.resolve('gpt-4o')).toThrow(/provider:model-id/);
    expect(() => models.resolve('scripted:')).toThrow(/provider:model-id/);
    expect(() => models.resolve('toString:x')).toThrow(/no provider "toString"/);
    expect(() => modelRegistry({ 'bad name': () => new ScriptedChatModel([]) })).toThrow(
      /provider "bad name"/,
    );
  });

  it('lets an agent name its model by string, and says when there is no registry', async () => {
    const { models } = registry();
    const agent = new ChatModelAgent({ name: 'helper', model: 'scripted:small', models });
    const state = await agent.graph.invoke({ input: 'hi' });
    expect(state.output).toBe('answer of small');
    expect(() => new ChatModelAgent({ name: 'lost', model: 'scripted:small' })).toThrow(
      /agent "lost" names its model as "scripted:small" but has no model registry/,
    );
    const instance = new ScriptedChatModel(['x']);
    expect(resolveModel(instance, undefined, 'test')).toBe(instance);
  });
});
