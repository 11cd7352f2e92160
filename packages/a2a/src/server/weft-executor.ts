import { type Task, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { describeError } from '../errors/weft-a2a-error.js';
import { answerOf, pendingOf, questionsOf } from './interrupt-answers.js';
import { TaskPublisher } from './task-publisher.js';
import { scopeOf, type TaskScope } from './task-scope.js';
import type { TurnCall, TurnRunner } from './turn.js';

/** A running execution: what stops it, and whether stopping it means the server is closing. */
interface Running {
  readonly controller: AbortController;
  closing: boolean;
  /** Settles when the execution ended (its run stopped and released its thread). */
  done?: Promise<void>;
}

/**
 * The SDK's `AgentExecutor` for a Weft agent or graph: a new message starts a run, a message to a task
 * waiting for input answers its pauses, and cancelling aborts the run (or, for a task waiting for input,
 * ends it). Closing the server aborts the runs without ending their tasks, which stay `working` in the
 * task store for a server started again over the same stores to continue ({@link WeftExecutor.recover}).
 */
export class WeftExecutor implements AgentExecutor {
  readonly #running = new Map<string, Running>();
  /** Tasks of this process waiting for input, with their context (cancelling one ends it here). */
  readonly #waiting = new Map<string, string>();
  #closed = false;

  constructor(private readonly turns: TurnRunner) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const publisher = new TaskPublisher(
      bus,
      request.taskId,
      request.contextId,
      request.userMessage.messageId,
    );
    publisher.start(request.task, request.userMessage);
    const base = { taskId: request.taskId, contextId: request.contextId, scope: scopeOf(request.context) };
    const waiting = request.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    await this.#run(publisher, (signal) =>
      waiting
        ? { ...base, signal, kind: 'answer', answer: answerOf(request.userMessage, pendingOf(request.task)) }
        : { ...base, signal, kind: 'new', message: request.userMessage },
    );
  }

  /** Continues a task a stopped server left `submitted` or `working`, from its run's last checkpoint. */
  async recover(task: Task, scope: TaskScope, bus: ExecutionEventBus): Promise<void> {
    const publisher = new TaskPublisher(bus, task.id, task.contextId, `recovered-${Date.now()}`);
    await this.#run(publisher, (signal) => ({
      taskId: task.id,
      contextId: task.contextId,
      scope,
      signal,
      kind: 'recover',
    }));
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const running = this.#running.get(taskId);
    if (running) {
      running.controller.abort();
      return;
    }
    // Nothing runs for it (it waits for input): end it here.
    const contextId = this.#waiting.get(taskId) ?? '';
    this.#waiting.delete(taskId);
    new TaskPublisher(bus, taskId, contextId, 'cancel').canceled();
  }

  /**
   * Aborts every run and waits for them to stop; their tasks stay as they are (`working`), for a
   * restarted server to continue.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const stopping = [...this.#running.values()];
    for (const running of stopping) {
      running.closing = true;
      running.controller.abort();
    }
    await Promise.all(stopping.map((running) => running.done));
  }

  #run(publisher: TaskPublisher, callOf: (signal: AbortSignal) => TurnCall): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const running: Running = { controller: new AbortController(), closing: false };
    this.#running.set(publisher.taskId, running);
    running.done = this.#execute(publisher, running, callOf);
    return running.done;
  }

  async #execute(
    publisher: TaskPublisher,
    running: Running,
    callOf: (signal: AbortSignal) => TurnCall,
  ): Promise<void> {
    this.#waiting.delete(publisher.taskId);
    publisher.working();
    try {
      const outcome = await this.turns.run(callOf(running.controller.signal), {
        chunk: (text) => publisher.chunk(text),
        progress: (parts, metadata) => {
          publisher.messageDone();
          publisher.working({ parts, metadata });
        },
      });
      if (running.closing) return;
      if (outcome.status === 'cancelled') publisher.canceled();
      else if (outcome.status === 'interrupted') {
        this.#waiting.set(publisher.taskId, publisher.contextId);
        publisher.inputRequired(questionsOf(outcome.interrupts), outcome.interrupts);
      } else {
        publisher.reply(outcome.reply, outcome.metadata);
        publisher.completed();
      }
    } catch (error) {
      if (running.closing) return;
      if (running.controller.signal.aborted) publisher.canceled();
      else publisher.failed(`The run failed: ${describeError(error)}`);
    } finally {
      if (this.#running.get(publisher.taskId) === running) this.#running.delete(publisher.taskId);
    }
  }
}
