import type { AgentMiddleware } from '../agent/middleware.js';
import { AGENT_HOOKS, assertHooks, RUNNER_HOOKS } from '../agent/middleware-hooks.js';
import type { AgentEvent } from '../event/agent-event.js';
import type { InvocationOutcome } from './invocation.js';
import {
  type AfterRunHook,
  type BeforeRunHook,
  type OnEventHook,
  type RunnerPlugin,
  type RunStartContext,
  runBeforeRun,
} from './runner-plugin.js';

/**
 * The Runner-wide hooks of one turn: the Runner's own `beforeRun`/`afterRun`, then its plugins'; and
 * what the invocation takes from them (`temp:` keys, the tenant, the plugins' middleware).
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 's1' };
 * await sessions.create(key);
 * const session = (await sessions.get(key))!;
 * const options = { afterRun: ({ outcome }: RunEndContext) => console.log(outcome) };
 * const hooks = new RunHooks(options, { ...key, session, input: { message: 'Hi' } });
 * const temp = await hooks.before();
 * await hooks.after('completed');
 * ```
 */
export class RunHooks {
  readonly #named: readonly { name: string; before?: BeforeRunHook; after?: AfterRunHook }[];
  readonly #plugins: readonly RunnerPlugin[];

  constructor(
    options: {
      readonly beforeRun?: BeforeRunHook;
      readonly afterRun?: AfterRunHook;
      readonly plugins?: readonly RunnerPlugin[];
    },
    readonly context: RunStartContext,
  ) {
    const plugins = options.plugins ?? [];
    this.#named = [
      { name: 'the runner', before: options.beforeRun, after: options.afterRun },
      ...plugins.map((p) => ({ name: `plugin "${p.name}"`, before: p.beforeRun, after: p.afterRun })),
    ].map(({ name, before, after }) => ({
      name,
      ...(before ? { before } : {}),
      ...(after ? { after } : {}),
    }));
    this.#plugins = plugins;
  }

  /** Runs the `beforeRun` hooks. @throws RunRefusedError when one refuses. */
  before(): Promise<Map<string, unknown>> {
    return runBeforeRun(
      this.#named.map((h) => ({ name: h.name, hook: h.before })),
      this.context,
    );
  }

  /** Runs the `afterRun` hooks, in order. */
  async after(outcome: InvocationOutcome | 'failed', error?: unknown): Promise<void> {
    const context = { ...this.context, outcome, ...(error === undefined ? {} : { error }) };
    for (const { after } of this.#named) await after?.(context);
  }

  /** The invocation arguments these hooks add. */
  invocationArgs(temp: Map<string, unknown>): {
    temp: Map<string, unknown>;
    plugins: readonly AgentMiddleware[];
    tenantId?: string;
    onEvent?: (event: AgentEvent, invocationId: string) => Promise<AgentEvent>;
  } {
    const { tenantId } = this.context;
    const hooks = this.#plugins.flatMap((p) => (p.onEvent ? [p.onEvent.bind(p)] : []));
    return {
      temp,
      plugins: this.#plugins,
      ...(tenantId === undefined ? {} : { tenantId }),
      ...(hooks.length === 0
        ? {}
        : { onEvent: (event, invocationId) => this.#onEvent(hooks, event, invocationId) }),
    };
  }

  /** The event the caller receives: the first plugin's replacement, else the event itself. */
  async #onEvent(
    hooks: readonly OnEventHook[],
    event: AgentEvent,
    invocationId: string,
  ): Promise<AgentEvent> {
    const { appName, userId, sessionId, tenantId } = this.context;
    const context = {
      appName,
      userId,
      sessionId,
      invocationId,
      ...(tenantId === undefined ? {} : { tenantId }),
    };
    for (const hook of hooks) {
      const replaced = await hook(event, context);
      if (replaced !== undefined) return replaced;
    }
    return event;
  }
}

/**
 * Checks a Runner's plugins: each has a name, and only hooks the Runner calls (the agent hooks, plus
 * `beforeRun`, `afterRun` and `onEvent`).
 *
 * @throws AdkError `INVALID_ARGUMENT` naming the plugin and the hook nothing would call.
 * @example
 * ```ts
 * assertPlugins([{ name: 'audit', afterRun: ({ outcome }) => console.info(outcome) }]); // fine
 * ```
 */
export function assertPlugins(plugins: readonly RunnerPlugin[]): void {
  plugins.forEach((plugin, index) => {
    const where = typeof plugin.name === 'string' ? `plugin "${plugin.name}"` : `plugin #${index + 1}`;
    assertHooks(plugin, { hooks: [...AGENT_HOOKS, ...RUNNER_HOOKS], where });
  });
}
