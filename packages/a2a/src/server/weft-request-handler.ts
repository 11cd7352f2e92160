import {
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import type { StoreTaskStore } from './store-task-store.js';

const open = new Set([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]);

/**
 * The SDK's request handler, with one rule more: a message for a task that is still running is refused
 * (`UnsupportedOperation`: wait for it with `SubscribeToTask`, or cancel it) instead of starting a second
 * run of the same task; and for agents, whose context is one session with one writer, a new task in a
 * context that still has an open task (running or waiting for input) is refused the same way.
 */
export class WeftRequestHandler extends DefaultRequestHandler {
  #tasks: StoreTaskStore | undefined;
  #oneTaskPerContext = false;

  /** Sets the store the rule reads and whether contexts take one open task at a time. */
  admitWith(tasks: StoreTaskStore, oneTaskPerContext: boolean): this {
    this.#tasks = tasks;
    this.#oneTaskPerContext = oneTaskPerContext;
    return this;
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Task | Message> {
    await this.#admit(params, context);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.#admit(params, context);
    yield* super.sendMessageStream(params, context);
  }

  async #admit(params: SendMessageRequest, context: ServerCallContext): Promise<void> {
    const message = params.message;
    const tasks = this.#tasks;
    if (!message || !tasks) return;
    if (message.taskId) {
      const task = await tasks.load(message.taskId, context);
      if (task?.status && open.has(task.status.state))
        throw new UnsupportedOperationError(
          `task ${task.id} is still running; follow it with SubscribeToTask (tasks/resubscribe) or cancel it`,
        );
      return;
    }
    if (!this.#oneTaskPerContext || !message.contextId) return;
    const busy = await tasks.openIn(message.contextId, context);
    if (busy)
      throw new UnsupportedOperationError(
        `context ${message.contextId} has an open task (${busy.id}): answer or cancel it before starting another`,
      );
  }
}
