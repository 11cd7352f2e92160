import { AsyncQueue, type Callbacks, type Checkpointer, MemoryCheckpointer, type Store } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { ArtifactService } from '../artifact/artifact-service.js';
import { AdkError } from '../errors/adk-error.js';
import type { AgentEvent } from '../event/agent-event.js';
import type { MemoryService } from '../memory/memory-service.js';
import type { Message } from '../message/message.js';
import type { SessionKey, SessionService } from '../session/session.js';
import { type CancelOptions, CancelState, safePointsOf } from './cancel-state.js';
import { type RunPassThrough, runInvocation, threadOf } from './invocation.js';
import { CONTINUE, turnInputOf } from './resume-input.js';
import { assertPlugins, RunHooks } from './run-hooks.js';
import type { AfterRunHook, BeforeRunHook, RunnerPlugin } from './runner-plugin.js';
import {
  assertResumable,
  beginTurn,
  type ExpiredSession,
  endTurn,
  expireWaitingSessions,
  type WaitingTimeout,
} from './session-lifecycle.js';
import { type RunnerCallbacks, turnCallbacks } from './turn-callbacks.js';

/** Options of a {@link Runner}. */
export interface RunnerOptions {
  /** Any agent: a chat-model agent, a workflow agent (sequential, parallel, loop) or a team. */
  readonly agent: Agent;
  readonly sessionService: SessionService;
  /** Stores the agent graph's checkpoints (default: in memory). Use a durable one to resume after restarts. */
  readonly checkpointer?: Checkpointer;
  /** App name for session scoping (default: the agent's name). */
  readonly appName?: string;
  /** Yield model tokens as partial events (default true). */
  readonly streaming?: boolean;
  /**
   * Things the runner owns and closes in {@link Runner.close} (e.g. MCP toolsets' connections), in order.
   */
  readonly resources?: readonly RunnerResource[];
  /**
   * Versioned files of sessions and users (tools reach them as `context.artifacts`; a save is recorded
   * in its event's `actions.artifactDelta`).
   */
  readonly artifactService?: ArtifactService;
  /**
   * The long-term store every agent's nodes see as `ctx.store` and every tool as `context.store` —
   * sub-agents and agents used as tools included (it replaces a store the agent graph was compiled with).
   */
  readonly store?: Store;
  /**
   * Long-term memory (Google ADK's `memory_service`): tools reach it as `context.memory`, bound to the
   * session's user; `recall()`, `memorize()` and `loadMemoryTool()` given no service use it.
   */
  readonly memoryService?: MemoryService;
  /** Runs before each turn and resume; throwing refuses it (`RunRefusedError`); may return `temp:` keys. */
  readonly beforeRun?: BeforeRunHook;
  /** Runs after each turn and resume, also a failed one. */
  readonly afterRun?: AfterRunHook;
  /**
   * Callbacks for every agent the Runner runs (Google ADK's plugins): their middleware hooks wrap each
   * agent's own, their `beforeRun`/`afterRun` run after the Runner's own.
   */
  readonly plugins?: readonly RunnerPlugin[];
  /** How long a session may wait for a human and what happens then (see {@link Runner.expireWaiting}). */
  readonly waitingTimeout?: WaitingTimeout;
  /**
   * The checkpoint thread of a session (default: adk's collision-free {@link threadOf}); e.g. a host that
   * keeps its own thread ids and several sessions (branches) on one checkpoint thread.
   */
  readonly threadOf?: (key: SessionKey) => string;
  /** Record on each committed event the last root checkpoint saved before it (`event.checkpointId`). */
  readonly recordCheckpoints?: boolean;
  /**
   * Subscribers of every turn's and resume's events — tracing registered once:
   * `callbacks: (turn) => tracing.callbacks()` — next to the Runner's own. An object, or a function of
   * the turn (its session and agent) called at each start. A call's own `callbacks` still apply too.
   */
  readonly callbacks?: RunnerCallbacks;
}

/**
 * Something a {@link Runner} closes when it is closed, such as a connection its agent's tools use.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
 * const sessionService = new MemorySessionService();
 * const connection = { close: () => console.log('closed') }; // e.g. an MCP toolset
 * const runner = new Runner({ agent, sessionService, resources: [connection] });
 * await runner.close(); // closes the connection too
 * ```
 */
export interface RunnerResource {
  close(): unknown;
}

/** Which session a call works on. */
export interface SessionRef {
  readonly userId: string;
  readonly sessionId: string;
  /** The tenant the run is for: reaches hooks, tools (`context.run`), models (option `run`) and middleware. */
  readonly tenantId?: string;
  readonly signal?: AbortSignal;
}

/**
 * Runs an agent against sessions and yields its events. The contract: a non-partial event's
 * `stateDelta` is committed to the session service before the agent continues; partial (streaming)
 * events are forwarded, never stored; `temp:` keys live for one invocation; a pause is persisted, and
 * `resume` continues exactly there — also from a new process over the same stores.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Hello!']); // or any ChatModel
 * const agent = new ChatModelAgent({ name: 'assistant', model });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Hi!' })) {
 *   if (!event.partial && event.message) console.log(event.author, event.message.content);
 * }
 * ```
 */
export class Runner {
  readonly appName: string;
  /** The agent it runs. */
  readonly agent: Agent;
  /** The session service events are committed to. */
  readonly sessionService: SessionService;
  readonly #options: RunnerOptions;
  readonly #checkpointer: Checkpointer;
  readonly #active = new Map<string, CancelState>();
  #closed = false;

  /** @throws AdkError `INVALID_ARGUMENT` for a plugin hook the Runner would never call (a misspelled name). */
  constructor(options: RunnerOptions) {
    assertPlugins(options.plugins ?? []);
    this.#options = options;
    this.agent = options.agent;
    this.sessionService = options.sessionService;
    this.#checkpointer = options.checkpointer ?? new MemoryCheckpointer();
    this.appName = options.appName ?? options.agent.name;
  }

  /**
   * Sends a user message (the session is created when missing) and yields the invocation's events. A
   * tool message (`toolMessage(result, { toolCallId, name })`) delivers a long-running call's progress or
   * result: it resumes the pause the call waits in, when it waits in one (other pending calls keep
   * waiting), and is otherwise a turn the model answers, seeing the call followed by that result.
   *
   * @throws AdkError (in the stream) `INVALID_ARGUMENT` for a tool message whose call the conversation
   *   does not hold (nothing is stored); `SESSION_FINISHED` (`SessionStatusError`) for a finished session.
   */
  run(
    options: SessionRef &
      RunPassThrough & {
        readonly message: Message | string;
        readonly state?: Readonly<Record<string, unknown>>;
      },
  ): AsyncIterableIterator<AgentEvent> {
    return this.#start(options, { message: options.message }, options.state);
  }

  /** The callbacks of one turn: the Runner's (see `callbacks`) and the call's own. */
  #turnCallbacks(key: SessionKey, perCall: Callbacks | undefined): Callbacks | undefined {
    const turn = { ...key, agentName: this.#options.agent.name };
    return turnCallbacks(this.#options.callbacks, turn, perCall);
  }

  /** The checkpoint thread of a session (the `threadOf` option, else adk's {@link threadOf}). */
  #threadOf(key: SessionKey): string {
    return (this.#options.threadOf ?? threadOf)(key);
  }

  /**
   * Continues a paused invocation: `decisions` answers its interrupts (`{ [interruptId]: value }`, or one
   * value for a single pause; tool approvals take `true`/`false` or `{ approved, reason }`). Without
   * decisions every pending pause is answered `{ continue: true }` (a cancelled run — parallel branches
   * may hold several safe-point pauses — goes on).
   *
   * @throws AdkError (in the stream) `NOT_RESUMABLE` when nothing is pending: the session is `idle` (its
   *   last turn ended, or its pause was dropped) and no `checkpointId` names where to continue, or its
   *   checkpoint holds neither a pause nor unfinished steps; `SESSION_FINISHED` (`SessionStatusError`) when
   *   it is finished; `SESSION_NOT_FOUND` for an unknown session.
   */
  resume(
    options: SessionRef & RunPassThrough & { readonly decisions?: unknown },
  ): AsyncIterableIterator<AgentEvent> {
    return this.#start(options, { resume: options.decisions ?? CONTINUE });
  }

  /**
   * Cancels the running invocation of one user's session; returns false when none is running.
   *
   * @example
   * ```ts
   * import { ScriptedChatModel } from '@weft/adk/testing';
   * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
   * const sessionService = new MemorySessionService();
   * const runner = new Runner({ agent, sessionService });
   * runner.cancel({ userId: 'u1', sessionId: 's1' }, { mode: ['afterModel', 'afterTools'], timeoutMs: 5_000 }); // false: not running
   * ```
   */
  cancel(session: Pick<SessionRef, 'userId' | 'sessionId'>, options: CancelOptions = {}): boolean {
    safePointsOf(options.mode);
    const key = { appName: this.appName, userId: session.userId, sessionId: session.sessionId };
    const state = this.#active.get(this.#threadOf(key));
    state?.request(options);
    return state !== undefined;
  }

  /**
   * Finishes a session: its status becomes `finished` and new turns or resumes are refused with a
   * `SessionStatusError` (`SESSION_FINISHED`).
   *
   * @throws AdkError `INVALID_ARGUMENT` while a turn of the session runs here; `SESSION_NOT_FOUND`.
   * @example
   * ```ts
   * import { ScriptedChatModel } from '@weft/adk/testing';
   * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
   * const sessionService = new MemorySessionService();
   * const runner = new Runner({ agent, sessionService });
   * await drain(runner.run({ userId: 'u1', sessionId: 's1', message: 'Thanks, that is all.' }));
   * await runner.finish({ userId: 'u1', sessionId: 's1' }); // status 'finished': later runs are refused
   * ```
   */
  async finish(session: Pick<SessionRef, 'userId' | 'sessionId'>): Promise<void> {
    const key = { appName: this.appName, userId: session.userId, sessionId: session.sessionId };
    if (this.#active.has(this.#threadOf(key)))
      throw new AdkError('INVALID_ARGUMENT', `session "${session.sessionId}" is running; cancel it first`);
    await this.sessionService.setStatus(key, { status: 'finished' });
  }

  /**
   * Applies `waitingTimeout` to the app's sessions that wait for a human longer than it allows (call it
   * from a timer or a cron job; several processes may sweep at once): `cancel` drops the pause,
   * `{ resume }` resumes the turn with the default answer. Returns the sessions acted on.
   *
   * @throws AdkError `INVALID_ARGUMENT` when the runner has no `waitingTimeout`.
   * @example
   * ```ts
   * import { ScriptedChatModel } from '@weft/adk/testing';
   * const agent = new ChatModelAgent({ name: 'desk', model: new ScriptedChatModel(['Hello!']) });
   * const sessionService = new MemorySessionService();
   * const runner = new Runner({ agent, sessionService, waitingTimeout: { afterMs: 24 * 3_600_000, action: 'cancel' } });
   * setInterval(() => void runner.expireWaiting(), 60_000);
   * ```
   */
  async expireWaiting(options: { readonly now?: number } = {}): Promise<ExpiredSession[]> {
    const timeout = this.#options.waitingTimeout;
    if (!timeout)
      throw new AdkError('INVALID_ARGUMENT', 'expireWaiting needs the runner option waitingTimeout');
    return expireWaitingSessions({
      service: this.sessionService,
      appName: this.appName,
      agentName: this.#options.agent.name,
      timeout,
      now: options.now ?? Date.now(),
      resume: (key, decisions) => this.resume({ userId: key.userId, sessionId: key.sessionId, decisions }),
    });
  }

  /**
   * Cancels every running invocation, closes the `resources` it was given (all of them, even when one
   * fails: the first failure is rethrown after), and refuses new runs. Closing twice does nothing.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const state of this.#active.values()) state.request({});
    const results = await Promise.allSettled((this.#options.resources ?? []).map(async (r) => r.close()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** `await using runner = new Runner(...)` closes it at the end of the scope. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #start(
    ref: SessionRef & RunPassThrough,
    input: { message: Message | string } | { resume: unknown },
    state?: Readonly<Record<string, unknown>>,
  ): AsyncIterableIterator<AgentEvent> {
    const key: SessionKey = { appName: this.appName, userId: ref.userId, sessionId: ref.sessionId };
    const threadId = this.#threadOf(key);
    const controller = new AbortController();
    const queue = new AsyncQueue<AgentEvent>(256, () =>
      controller.abort(new Error('the event consumer stopped reading')),
    );
    if (this.#closed) {
      queue.fail(new AdkError('INVALID_ARGUMENT', 'the runner is closed; create a new one to run again'));
      return queue;
    }
    if (this.#active.has(threadId)) {
      queue.fail(
        new AdkError(
          'INVALID_ARGUMENT',
          `session "${ref.sessionId}" is already running; wait for it or cancel it`,
        ),
      );
      return queue;
    }
    const cancel = new CancelState(controller);
    this.#active.set(threadId, cancel);
    const signal = ref.signal ? AbortSignal.any([ref.signal, controller.signal]) : controller.signal;
    const work = async (): Promise<void> => {
      let session = await this.#options.sessionService.get(key, { recentEvents: 0 });
      if (!session) {
        if ('resume' in input)
          throw new AdkError(
            'SESSION_NOT_FOUND',
            `session "${ref.sessionId}" does not exist; nothing to resume`,
          );
        session = await this.#options.sessionService.create({ ...key, ...(state ? { state } : {}) });
      }
      const graph = this.#options.agent.compile({ checkpointer: this.#checkpointer });
      // What the turn runs is settled before anything runs or is stored: a resume with nothing pending
      // is refused, a tool message sent in answers its waiting call or must answer a call made.
      const fromCheckpoint = ref.checkpointId !== undefined;
      if ('resume' in input) assertResumable(session, { fromCheckpoint });
      const turnInput = await turnInputOf({
        graph,
        sessionId: key.sessionId,
        threadId,
        input,
        checkpointId: ref.checkpointId,
      });
      const resuming = 'resume' in turnInput;
      const hooks = new RunHooks(this.#options, {
        ...key,
        ...(ref.tenantId === undefined ? {} : { tenantId: ref.tenantId }),
        session,
        input,
      });
      const temp = await hooks.before();
      await beginTurn(this.sessionService, key, { resuming, fromCheckpoint });
      const outcome = await runInvocation({
        graph,
        agentName: this.#options.agent.name,
        sessionService: this.#options.sessionService,
        key,
        threadId,
        input: turnInput,
        streaming: this.#options.streaming ?? true,
        signal,
        cancel,
        push: (event) => queue.push(event),
        ...(this.#options.artifactService ? { artifactService: this.#options.artifactService } : {}),
        ...(this.#options.store ? { store: this.#options.store } : {}),
        ...(this.#options.memoryService ? { memoryService: this.#options.memoryService } : {}),
        passThrough: passThroughOf(ref, this.#turnCallbacks(key, ref.callbacks)),
        ...(this.#options.recordCheckpoints ? { recordCheckpoints: true } : {}),
        ...hooks.invocationArgs(temp),
      }).catch(async (error: unknown) => {
        await endTurn(this.sessionService, key, 'failed');
        await hooks.after('failed', error);
        throw error;
      });
      await endTurn(this.sessionService, key, outcome);
      await hooks.after(outcome);
    };
    // The session is released before its stream ends, so a caller that saw the end can start the next
    // turn at once.
    const release = () => {
      cancel.dispose();
      this.#active.delete(threadId);
    };
    work().then(
      () => {
        release();
        queue.close();
      },
      (error: unknown) => {
        release();
        queue.fail(error);
      },
    );
    return queue;
  }
}

/** The run options of a call that go to the graph (only those given), with the turn's `callbacks`. */
function passThroughOf(ref: RunPassThrough, callbacks: Callbacks | undefined): RunPassThrough {
  const { interruptBefore, interruptAfter, checkpointId, runId } = ref;
  return {
    ...(runId === undefined ? {} : { runId }),
    ...(callbacks === undefined ? {} : { callbacks }),
    ...(interruptBefore === undefined ? {} : { interruptBefore }),
    ...(interruptAfter === undefined ? {} : { interruptAfter }),
    ...(checkpointId === undefined ? {} : { checkpointId }),
  };
}
