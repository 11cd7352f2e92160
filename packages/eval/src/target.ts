import { type Agent, type AgentEvent, MemorySessionService, Runner, type SessionService } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';
import { captureTurn, type TurnCapture } from './capture/turn-capture.js';
import type { EvalTurn } from './eval-set.js';

/** What a target is given for one turn of one case run. */
export interface TurnRequest {
  readonly turn: EvalTurn;
  /** A fresh session per case run: `<case id>#<repeat>`. */
  readonly sessionId: string;
  readonly userId: string;
  /** The case's initial session state, on its first turn only. */
  readonly state?: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
}

/**
 * What an eval runs against. {@link agentTarget} runs any agent through a `Runner`; write your own for
 * a graph or a remote service by returning a {@link TurnCapture} per turn.
 *
 * @example
 * ```ts
 * const echo: EvalTarget = {
 *   name: 'echo',
 *   runTurn: async ({ turn }) => ({
 *     toolCalls: [],
 *     response: turn.user ?? '',
 *     usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0 },
 *     latencyMs: 0,
 *   }),
 * };
 * ```
 */
export interface EvalTarget {
  readonly name: string;
  runTurn(request: TurnRequest): Promise<TurnCapture>;
  /** Called once a case run's turns are done, to free what the session held. */
  endSession?(sessionId: string): void;
}

/** Options of {@link agentTarget}. */
export interface AgentTargetOptions {
  /** Makes the session service of each case run (default: a new `MemorySessionService`). */
  readonly sessionService?: () => SessionService;
  /** Makes the checkpointer of each case run (default: the Runner's in-memory one). */
  readonly checkpointer?: () => Checkpointer;
}

/**
 * Runs an agent through the `Runner`, one fresh session (and, by default, fresh in-memory stores) per
 * case run, so cases never see each other's state. `user` turns call `runner.run`, `resume` turns
 * `runner.resume`.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['It is 5.']); // or any ChatModel
 * const calculatorAgent = new ChatModelAgent({ name: 'calc', model });
 * const set = parseEvalSet({
 *   name: 'calc',
 *   cases: [{ id: 'adds', turns: [{ user: 'What is 2 plus 3?', expect: { response: { contains: '5' } } }] }],
 * });
 * const report = await runEval({ set, target: agentTarget(calculatorAgent) });
 * ```
 */
export function agentTarget(agent: Agent, options: AgentTargetOptions = {}): EvalTarget {
  const runners = new Map<string, Runner>();
  const runnerFor = (sessionId: string): Runner => {
    let runner = runners.get(sessionId);
    if (!runner) {
      runner = new Runner({
        agent,
        sessionService: options.sessionService?.() ?? new MemorySessionService(),
        ...(options.checkpointer ? { checkpointer: options.checkpointer() } : {}),
        streaming: false,
      });
      runners.set(sessionId, runner);
    }
    return runner;
  };
  return {
    name: agent.name,
    async runTurn(request): Promise<TurnCapture> {
      const runner = runnerFor(request.sessionId);
      const ref = { userId: request.userId, sessionId: request.sessionId, signal: request.signal };
      const events: AsyncIterable<AgentEvent> =
        request.turn.user !== undefined
          ? runner.run({
              ...ref,
              message: request.turn.user,
              ...(request.state ? { state: request.state } : {}),
            })
          : runner.resume({ ...ref, decisions: request.turn.resume });
      return captureTurn(events);
    },
    endSession(sessionId) {
      runners.delete(sessionId);
    },
  };
}
