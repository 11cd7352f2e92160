import type { AgentCard } from '@a2a-js/sdk';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import { DefaultExecutionEventBusManager, type PushNotificationSender } from '@a2a-js/sdk/server';
import { MemoryStore } from '@weft/compose';
import { buildAgentCard } from './agent-card.js';
import type { A2aHandlerOptions } from './handler-options.js';
import { JsonRpcEndpoint } from './json-rpc-endpoint.js';
import { type RequestAuth, requestAuth } from './request-auth.js';
import { StorePushNotificationStore } from './store-push-store.js';
import { StoreTaskStore } from './store-task-store.js';
import { targetOf } from './target.js';
import { WeftExecutor } from './weft-executor.js';
import { WeftRequestHandler } from './weft-request-handler.js';

/** The parts of a served agent: the SDK's request handler over Weft's executor and stores. */
export interface AssembledServer {
  readonly name: string;
  readonly auth: RequestAuth;
  readonly tasks: StoreTaskStore;
  readonly executor: WeftExecutor;
  readonly buses: DefaultExecutionEventBusManager;
  readonly sender: PushNotificationSender | undefined;
  readonly requestHandler: WeftRequestHandler;
  readonly endpoint: JsonRpcEndpoint;
  /** The card of the agent reachable at `url`. */
  cardAt(url: string): AgentCard;
}

/**
 * Builds what a handler serves: the target's turns in a `WeftExecutor`, tasks and push configs in the
 * task store, push deliveries by the SDK's legacy-aware sender (0.3 webhooks get 0.3 bodies), and the
 * SDK's request handler (with Weft's admission rule) behind both JSON-RPC dialects.
 */
export function assembleServer(options: A2aHandlerOptions): AssembledServer {
  const target = targetOf(options);
  const auth = requestAuth(options.auth);
  const store = options.taskStore ?? new MemoryStore();
  const tasks = new StoreTaskStore(store, target.name);
  const push = options.pushNotifications ?? true;
  const pushOptions = typeof push === 'object' ? push : {};
  const pushStore = push
    ? new StorePushNotificationStore(store, target.name, pushOptions.allowUrl)
    : undefined;
  const cardAt = (url: string) =>
    buildAgentCard({ ...target, url, pushNotifications: push !== false, bearer: auth.bearer }, options.card);
  const executor = new WeftExecutor(target.turns);
  const buses = new DefaultExecutionEventBusManager();
  const sender = pushStore
    ? createLegacyAwarePushNotificationSender(pushStore, { timeout: pushOptions.timeoutMs ?? 5000 })
    : undefined;
  const requestHandler = new WeftRequestHandler(
    cardAt('http://localhost/'),
    tasks,
    executor,
    buses,
    pushStore,
    sender,
  ).admitWith(tasks, target.turns.oneTaskPerContext);
  return {
    name: target.name,
    auth,
    tasks,
    executor,
    buses,
    sender,
    requestHandler,
    endpoint: new JsonRpcEndpoint(requestHandler),
    cardAt,
  };
}
