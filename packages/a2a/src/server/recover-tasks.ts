import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutionEvent,
  DefaultExecutionEventBus,
  type ExecutionEventBusManager,
  ExecutionEventQueue,
  type PushNotificationSender,
  ResultManager,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import type { StoreTaskStore } from './store-task-store.js';
import { A2aPrincipal, ANONYMOUS, type TaskScope } from './task-scope.js';
import type { WeftExecutor } from './weft-executor.js';

/** What recovering needs of a handler. */
export interface RecoverDeps {
  readonly tasks: StoreTaskStore;
  readonly executor: WeftExecutor;
  readonly buses: ExecutionEventBusManager;
  readonly sender?: PushNotificationSender;
  /** Collects the deliveries still in flight (what closing the handler waits for). */
  readonly deliveries: Set<Promise<void>>;
}

/**
 * Continues every task a stopped server left `submitted` or `working`: its run continues from its last
 * checkpoint, each event is saved to the task store and only then published on the task's execution
 * bus (so `SubscribeToTask` follows it live and what a subscriber saw is stored), and sent to the task's
 * webhooks as a request's events are. Resolves with the ids once all started.
 */
export async function recoverTasks(deps: RecoverDeps): Promise<string[]> {
  const unfinished = await deps.tasks.unfinished();
  for (const { task, scope } of unfinished) {
    const context = contextOf(scope);
    const shared = deps.buses.createOrGetByTaskId(task.id, context);
    const own = new DefaultExecutionEventBus();
    const queue = new ExecutionEventQueue(own);
    const results = new ResultManager(deps.tasks, context);
    let last: TaskState | undefined;
    const drained = (async () => {
      for await (const event of queue.events()) {
        last = stateOf(event) ?? last;
        await results.processEvent(event);
        shared.publish(event);
        deliver(deps, event, context, task.id);
      }
    })();
    void deps.executor
      .recover(task, scope, own)
      .then(() => drained)
      .catch((error: unknown) => console.error(`[weft a2a] recovering task ${task.id} failed:`, error))
      .finally(() => {
        queue.stop();
        if (last === TaskState.TASK_STATE_INPUT_REQUIRED) return;
        shared.finished();
        deps.buses.cleanupByTaskId(task.id, context);
      });
  }
  return unfinished.map((entry) => entry.task.id);
}

function deliver(
  deps: RecoverDeps,
  event: AgentExecutionEvent,
  context: ServerCallContext,
  taskId: string,
): void {
  if (!deps.sender) return;
  const delivery = deps.sender.send(streamResponseOf(event), context).catch((error: unknown) => {
    console.error(`[weft a2a] push notification for task ${taskId} failed:`, error);
  });
  deps.deliveries.add(delivery);
  void delivery.finally(() => deps.deliveries.delete(delivery));
}

function contextOf(scope: TaskScope): ServerCallContext {
  return new ServerCallContext({
    ...(scope.owner === ANONYMOUS ? {} : { user: new A2aPrincipal(scope.owner) }),
    ...(scope.tenant ? { tenant: scope.tenant } : {}),
    requestedVersion: '1.0',
  });
}

function stateOf(event: AgentExecutionEvent): TaskState | undefined {
  if (event.kind === 'statusUpdate') return event.data.status?.state;
  if (event.kind === 'task') return event.data.status?.state;
  return undefined;
}

function streamResponseOf(event: AgentExecutionEvent): StreamResponse {
  switch (event.kind) {
    case 'message':
      return { payload: { $case: 'message', value: event.data } };
    case 'task':
      return { payload: { $case: 'task', value: event.data } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: event.data } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: event.data } };
  }
}
