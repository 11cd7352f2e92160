import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutionEvent,
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
}

/**
 * Continues every task a stopped server left `submitted` or `working`: each gets its execution bus back
 * (so `SubscribeToTask` follows it live), its events are saved to the task store and sent to its
 * webhooks as a request's would be, and its run continues from its last checkpoint. Resolves with the
 * ids once all started.
 */
export async function recoverTasks(deps: RecoverDeps): Promise<string[]> {
  const unfinished = await deps.tasks.unfinished();
  for (const { task, scope } of unfinished) {
    const context = contextOf(scope);
    const bus = deps.buses.createOrGetByTaskId(task.id, context);
    const queue = new ExecutionEventQueue(bus);
    const results = new ResultManager(deps.tasks, context);
    let last: TaskState | undefined;
    const drained = (async () => {
      for await (const event of queue.events()) {
        last = stateOf(event) ?? last;
        await results.processEvent(event);
        deps.sender?.send(streamResponseOf(event), context).catch((error: unknown) => {
          console.error(`[weft a2a] push notification for task ${task.id} failed:`, error);
        });
      }
    })();
    void deps.executor
      .recover(task, scope, bus)
      .then(() => drained)
      .catch((error: unknown) => console.error(`[weft a2a] recovering task ${task.id} failed:`, error))
      .finally(() => {
        queue.stop();
        if (last === TaskState.TASK_STATE_INPUT_REQUIRED) return;
        bus.finished();
        deps.buses.cleanupByTaskId(task.id, context);
      });
  }
  return unfinished.map((entry) => entry.task.id);
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
