import { WeftError } from '@weft/compose';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { ChatModelAgent } from '../agent/chat-model-agent.js';
import { abortError } from '../internal/abort.js';
import { CancelState } from '../runner/cancel-state.js';
import { runInvocation } from '../runner/invocation.js';
import { MemorySessionService } from '../session/memory-session-service.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import { AdkError } from './adk-error.js';

describe('one error family', () => {
  test('an adk error is a WeftError whose code is typed by its own family', () => {
    const error = new AdkError('TOOL_TIMEOUT', 'slow');
    expect(error).toBeInstanceOf(WeftError);
    expect(WeftError.isInstance(error)).toBe(true);
    expect(AdkError.isInstance(error)).toBe(true);
    expect(AdkError.isInstance(new WeftError('STEP_LIMIT', 'loop'))).toBe(false);
    const caught: unknown = error;
    if (WeftError.isInstance(caught)) expectTypeOf(caught.code).toEqualTypeOf<string>();
    if (AdkError.isInstance(caught)) expectTypeOf(caught.code).toEqualTypeOf<AdkError['code']>();
  });

  test('there is one abort error: a WeftError with code ABORTED named AbortError', () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const error = abortError(controller.signal, 'the model call');
    expect(error).toBeInstanceOf(WeftError);
    expect(WeftError.isInstance(error) && error.code).toBe('ABORTED');
    expect(error.name).toBe('AbortError');
    expect(error.message).toBe('the model call was aborted: stop');
  });

  test('an invocation of a missing session fails with SESSION_NOT_FOUND, as the Runner does', async () => {
    const agent = new ChatModelAgent({ name: 'a', model: new ScriptedChatModel(['x']) });
    const failure = await runInvocation({
      graph: agent.graph,
      agentName: 'a',
      sessionService: new MemorySessionService(),
      key: { appName: 'a', userId: 'u', sessionId: 'missing' },
      threadId: 't',
      input: { message: 'hi' },
      streaming: false,
      signal: new AbortController().signal,
      cancel: new CancelState(new AbortController()),
      push: () => undefined,
    }).catch((error: unknown) => error);
    expect(AdkError.isInstance(failure) && failure.code).toBe('SESSION_NOT_FOUND');
  });
});
