/**
 * Google ADK's `{artifact.name}` placeholders, ported from adk-python
 * `tests/unittests/utils/test_instructions_utils.py` (`test_inject_session_state_with_artifact`,
 * `…_with_missing_artifact_raises_key_error`, `…_with_optional_missing_artifact_returns_empty`,
 * `…_artifact_service_not_initialized_raises_value_error`, `…_with_empty_artifact_name_raises_key_error`,
 * `…_with_multiple_variables_and_artifacts`, `…_with_none_state_value_returns_empty`), then through a
 * Runner with an artifact service.
 */
import { MemoryStore } from '@weft/compose';
import { describe, expect, test } from 'vitest';
import { renderInstruction, resolveInstruction } from '../src/agent-graph.js';
import {
  AdkError,
  ChatModelAgent,
  MemorySessionService,
  messageText,
  Runner,
  StoreArtifactService,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

/** ADK's MockArtifactService: a name → text map; absent names load as nothing. */
function artifacts(files: Record<string, string>) {
  return async (name: string) => files[name];
}

async function render(
  template: string,
  options: { state?: Record<string, unknown>; files?: Record<string, string> } = {},
) {
  return resolveInstruction(template, {
    state: options.state ?? {},
    agentName: 'agent',
    ...(options.files ? { artifact: artifacts(options.files) } : {}),
  });
}

async function failure(promise: Promise<unknown>): Promise<AdkError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(AdkError.isInstance(error)).toBe(true);
  return error as AdkError;
}

describe('{artifact.name} in instructions (test_instructions_utils.py)', () => {
  test('test_inject_session_state_with_artifact', async () => {
    const files = { my_file: 'This is my artifact content.' };
    expect(await render('The artifact content is: {artifact.my_file}', { files })).toBe(
      'The artifact content is: This is my artifact content.',
    );
  });

  test('test_inject_session_state_with_missing_artifact_raises_key_error', async () => {
    const error = await failure(render('The artifact content is: {artifact.missing_file}', { files: {} }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('missing_file');
  });

  test('test_inject_session_state_with_optional_missing_artifact_returns_empty', async () => {
    expect(await render('Optional artifact: {artifact.missing_file?}', { files: {} })).toBe(
      'Optional artifact: ',
    );
  });

  test('test_inject_session_state_artifact_service_not_initialized_raises_value_error', async () => {
    const error = await failure(render('The artifact content is: {artifact.my_file}'));
    expect(error.message).toMatch(/artifact service/);
    expect(() => renderInstruction('{artifact.my_file}', {}, 'agent')).toThrow(/artifact service/);
  });

  test('test_inject_session_state_with_empty_artifact_name_raises_key_error', async () => {
    const error = await failure(render('The artifact content is: {artifact.}', { files: { x: 'y' } }));
    expect(error.message).toContain('{artifact.}');
  });

  test('test_inject_session_state_with_multiple_variables_and_artifacts', async () => {
    const template = [
      'Hello {user_name},',
      'You are {user_age} years old.',
      'Your favorite color is {favorite_color?}.',
      'The artifact says: {artifact.my_file}',
      'And another optional artifact: {artifact.other_file}',
    ].join('\n');
    const state = { user_name: 'Foo', user_age: 30, favorite_color: 'blue' };
    const files = {
      my_file: 'This is my artifact content.',
      other_file: 'This is another artifact content.',
    };
    expect(await render(template, { state, files })).toBe(
      [
        'Hello Foo,',
        'You are 30 years old.',
        'Your favorite color is blue.',
        'The artifact says: This is my artifact content.',
        'And another optional artifact: This is another artifact content.',
      ].join('\n'),
    );
  });

  test('test_inject_session_state_with_none_state_value_returns_empty', async () => {
    expect(await render('Value: {test_key}', { state: { test_key: null } })).toBe('Value: ');
  });

  test("an artifact's text is not read as a template", async () => {
    expect(await render('{artifact.t}', { files: { t: 'keep {braces} and {{these}}' } })).toBe(
      'keep {braces} and {{these}}',
    );
  });
});

describe('{artifact.name} through a Runner', () => {
  test("the model's instruction holds the session's artifact; a binary one is a typed error", async () => {
    const artifactService = new StoreArtifactService({ store: new MemoryStore() });
    const key = { appName: 'writer', userId: 'u1', sessionId: 's1' };
    await artifactService.save(key, 'style.md', {
      data: 'Write in short sentences.',
      mimeType: 'text/markdown',
    });
    await artifactService.save(key, 'logo.png', {
      data: new Uint8Array([137, 80, 78, 71]),
      mimeType: 'image/png',
    });
    const model = new ScriptedChatModel(['Done.']);
    const agent = new ChatModelAgent({
      name: 'writer',
      model,
      instruction: 'Style guide: {artifact.style.md}',
    });
    const sessionService = new MemorySessionService();
    const runner = new Runner({ agent, sessionService, artifactService });
    await drain(runner.run({ userId: 'u1', sessionId: 's1', message: 'Write a haiku' }));
    expect(messageText(model.calls[0]?.messages[0] ?? { role: 'user', content: '' })).toBe(
      'Style guide: Write in short sentences.',
    );

    const logo = new ChatModelAgent({ name: 'writer', model, instruction: 'Logo: {artifact.logo.png}' });
    const failing = new Runner({ agent: logo, sessionService, artifactService });
    const error = await drain(failing.run({ userId: 'u1', sessionId: 's1', message: 'Hi' })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    // The model node failed on it: compose's NodeError names the node, its cause is the typed error.
    const cause = (error as { cause?: unknown }).cause;
    expect(AdkError.isInstance(cause) && cause.code).toBe('INVALID_ARGUMENT');
    expect((cause as Error).message).toMatch(/logo\.png.*image\/png/);
  });
});
