// `@weft/eval/vitest`: matchers for agent behaviour in ordinary vitest tests. Nothing here imports
// vitest at run time; `expect.extend(evalMatchers)` installs them.
import type {} from 'vitest';
import type { TurnCapture } from './capture/turn-capture.js';
import type { ExpectedResponse, ExpectedToolCall, TrajectoryMatch } from './eval-set.js';
import { checkResponse } from './scorers/response-scorer.js';
import { compareTrajectory } from './scorers/trajectory-scorer.js';

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/**
 * Vitest matchers over a {@link TurnCapture} (from `captureTurn(runner.run(...))`):
 * `toHaveCalledTools(expected, { match })` — tool names or `{ name, args }` with argument matchers,
 * compared as the trajectory scorer does (default `exact`) — and `toHaveResponded(expected)` with
 * `exact` / `contains` / `regex`.
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, 'It is 3.']); // or any ChatModel
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const runner = new Runner({
 *   agent: new ChatModelAgent({ name: 'calc', model, tools: [add] }),
 *   sessionService: new MemorySessionService(),
 * });
 * import { captureTurn } from '@weft/eval';
 * import { evalMatchers } from '@weft/eval/vitest';
 * expect.extend(evalMatchers);
 *
 * const turn = await captureTurn(runner.run({ userId: 'u', sessionId: 's', message: 'What is 1 + 2?' }));
 * expect(turn).toHaveCalledTools([{ name: 'add', args: { a: 1, b: 2 } }]);
 * expect(turn).toHaveResponded({ contains: '3' });
 * ```
 */
export const evalMatchers = {
  toHaveCalledTools(
    received: TurnCapture,
    expected: readonly (string | ExpectedToolCall)[],
    options: { readonly match?: TrajectoryMatch } = {},
  ): MatcherResult {
    const calls = expected.map((e) => (typeof e === 'string' ? { name: e } : e));
    const result = compareTrajectory(calls, received.toolCalls, options.match ?? 'exact');
    return {
      pass: result.score === 1,
      message: () =>
        result.score === 1
          ? `expected the tool calls not to match (${result.reason})`
          : `expected tool calls ${JSON.stringify(calls)}: ${result.reason}`,
    };
  },
  toHaveResponded(received: TurnCapture, expected: ExpectedResponse): MatcherResult {
    const result = checkResponse(expected, received.response);
    return {
      pass: result.score === 1,
      message: () =>
        result.score === 1
          ? `expected the response not to match ${JSON.stringify(expected)}`
          : `response ${result.reason}`,
    };
  },
};

/** The matchers' call signatures, for `declare module 'vitest'` augmentation. */
export interface EvalMatchers<R = unknown> {
  toHaveCalledTools(
    expected: readonly (string | ExpectedToolCall)[],
    options?: { readonly match?: TrajectoryMatch },
  ): R;
  toHaveResponded(expected: ExpectedResponse): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the shape vitest's own Assertion declares
  interface Assertion<T = any> extends EvalMatchers<T> {}
  interface AsymmetricMatchersContaining extends EvalMatchers {}
}
