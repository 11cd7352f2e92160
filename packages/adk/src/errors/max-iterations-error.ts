import { AdkError } from './adk-error.js';

/**
 * An agent called its model `maxIterations` times in one invocation without finishing.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const tools = [add];
 * new ChatModelAgent({ name: 'a', model, tools, maxIterations: 5 }); // the 6th model call fails with this
 * ```
 */
export class MaxIterationsError extends AdkError {
  /** The agent that ran out of iterations. */
  readonly agent: string;
  /** The limit. */
  readonly limit: number;

  constructor(agent: string, limit: number) {
    super(
      'MAX_ITERATIONS',
      `agent "${agent}" made ${limit} model calls without finishing; raise maxIterations or check its tools`,
    );
    this.name = 'MaxIterationsError';
    this.agent = agent;
    this.limit = limit;
  }
}
