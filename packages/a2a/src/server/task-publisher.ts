import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import { dataPart, textPart } from '../parts/a2a-parts.js';

/** A pause of a Weft run, as a task that needs input carries it. */
export interface PendingInterrupt {
  readonly id: string;
  readonly value: unknown;
}

/** Where Weft keeps its own data on A2A messages: `metadata.weft`. */
export const WEFT_METADATA = 'weft';

/**
 * Publishes one task's events on its execution bus in the shapes the SDK's request handler expects: the
 * task first, then status and artifact updates, ending with a terminal or `input-required` status. The
 * reply streams into one artifact (`reply-…`): tokens are appended as they come, and the finished reply
 * replaces them in one piece.
 */
export class TaskPublisher {
  readonly #replyId: string;
  #streaming = false;

  constructor(
    private readonly bus: ExecutionEventBus,
    readonly taskId: string,
    readonly contextId: string,
    /** Names the reply artifact of this execution (unique within the task). */
    replyKey: string,
  ) {
    this.#replyId = `reply-${replyKey}`;
  }

  /** The first event of an execution: a new task (`submitted`, holding the user's message) or the one continued. */
  start(existing: Task | undefined, userMessage: Message): void {
    const task: Task = existing ?? {
      id: this.taskId,
      contextId: this.contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      artifacts: [],
      history: [userMessage],
      metadata: {},
    };
    this.bus.publish(AgentEvent.task(task));
  }

  /** A `working` status, with a message of the run's progress when given. */
  working(message?: { readonly parts: Part[]; readonly metadata?: Record<string, unknown> }): void {
    this.#status(
      TaskState.TASK_STATE_WORKING,
      message ? this.message(message.parts, message.metadata) : undefined,
    );
  }

  /** A chunk of the reply being written (appended to the reply artifact). */
  chunk(text: string): void {
    if (text === '') return;
    this.#artifact([textPart(text)], { append: this.#streaming, lastChunk: false });
    this.#streaming = true;
  }

  /** A message finished: the next chunk starts the reply artifact over. */
  messageDone(): void {
    this.#streaming = false;
  }

  /** The finished reply, replacing whatever streamed into the reply artifact. */
  reply(parts: Part[], metadata: Record<string, unknown> = {}): void {
    if (parts.length === 0 && !this.#streaming) return;
    this.#artifact(parts, { append: false, lastChunk: true }, metadata);
    this.#streaming = false;
  }

  /** `input-required`: the run paused; the status message asks the question and lists the pauses. */
  inputRequired(question: string, interrupts: readonly PendingInterrupt[]): void {
    const parts = [textPart(question), dataPart({ interrupts })];
    const message = this.message(parts, { [WEFT_METADATA]: { interrupts } });
    this.#status(TaskState.TASK_STATE_INPUT_REQUIRED, message);
  }

  completed(): void {
    this.#status(TaskState.TASK_STATE_COMPLETED, undefined);
  }

  failed(reason: string): void {
    this.#status(TaskState.TASK_STATE_FAILED, this.message([textPart(reason)]));
  }

  canceled(reason = 'The task was canceled.'): void {
    this.#status(TaskState.TASK_STATE_CANCELED, this.message([textPart(reason)]));
  }

  /** An agent message of this task. */
  message(parts: Part[], metadata: Record<string, unknown> = {}): Message {
    return {
      messageId: randomUUID(),
      contextId: this.contextId,
      taskId: this.taskId,
      role: Role.ROLE_AGENT,
      parts,
      metadata,
      extensions: [],
      referenceTaskIds: [],
    };
  }

  #status(state: TaskState, message: Message | undefined): void {
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: { state, message, timestamp: now() },
        metadata: {},
      }),
    );
  }

  #artifact(
    parts: Part[],
    flags: { readonly append: boolean; readonly lastChunk: boolean },
    metadata: Record<string, unknown> = {},
  ): void {
    this.bus.publish(
      AgentEvent.artifactUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        artifact: {
          artifactId: this.#replyId,
          name: 'reply',
          description: '',
          parts,
          metadata,
          extensions: [],
        },
        append: flags.append,
        lastChunk: flags.lastChunk,
        metadata: {},
      }),
    );
  }
}

function now(): string {
  return new Date().toISOString();
}
